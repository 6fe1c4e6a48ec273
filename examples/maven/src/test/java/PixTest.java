import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Base64;
import org.junit.jupiter.api.Test;

class PixTest {
  static final String BASE = System.getenv("PIX_BASE_URL");
  static final String ID = System.getenv("PIX_CLIENT_ID");
  static final HttpClient HTTP = HttpClient.newHttpClient();

  static String basic(String id, String secret) {
    return "Basic " + Base64.getEncoder().encodeToString((id + ":" + secret).getBytes());
  }

  static HttpResponse<String> post(String path, String json, String auth) throws Exception {
    HttpRequest req = HttpRequest.newBuilder(URI.create(BASE + path))
        .header("Authorization", auth)
        .header("Accept", "application/json")
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(json))
        .build();
    return HTTP.send(req, HttpResponse.BodyHandlers.ofString());
  }

  static final String ME = basic(ID, System.getenv("PIX_CLIENT_SECRET"));

  @Test
  void aChargeIsCreatedPending() throws Exception {
    HttpResponse<String> res = post("/hub/transactions/in", "{\"amount\": 1000}", ME);
    assertEquals(200, res.statusCode());
    assertTrue(res.body().contains("\"status\":\"pending\""));
  }

  @Test
  void aWrongSecretIsRefused() throws Exception {
    assertEquals(401, post("/hub/transactions/in", "{\"amount\": 1000}", basic(ID, "wrong")).statusCode());
  }

  @Test
  void aTransferCanPend() throws Exception {
    String body = "{\"amount\": 1000, \"pix_key\": \"pending@pix.example\", \"pix_type\": \"EMAIL\"}";
    assertTrue(post("/hub/transactions/out", body, ME).body().contains("\"status\":\"pending\""));
  }
}

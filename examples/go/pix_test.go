package pix_test

import (
	"encoding/json"
	"net/http"
	"os"
	"strings"
	"testing"
)

var (
	base   = os.Getenv("PIX_BASE_URL")
	id     = os.Getenv("PIX_CLIENT_ID")
	secret = os.Getenv("PIX_CLIENT_SECRET")
)

func post(t *testing.T, path, body, user, pass string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, base+path, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.SetBasicAuth(user, pass)
	req.Header.Set("Accept", "application/json")
	req.Header.Set("Content-Type", "application/json")
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out map[string]any
	_ = json.NewDecoder(res.Body).Decode(&out)
	return res.StatusCode, out
}

func TestChargeIsCreatedPending(t *testing.T) {
	status, out := post(t, "/hub/transactions/in", `{"amount": 1000}`, id, secret)
	if status != 200 || out["status"] != "pending" {
		t.Fatalf("got %d %v", status, out)
	}
}

func TestWrongSecretIsRefused(t *testing.T) {
	if status, _ := post(t, "/hub/transactions/in", `{"amount": 1000}`, id, "wrong"); status != 401 {
		t.Fatalf("got %d", status)
	}
}

func TestTransferCanPend(t *testing.T) {
	_, out := post(t, "/hub/transactions/out", `{"amount": 1000, "pix_key": "pending@pix.example", "pix_type": "EMAIL"}`, id, secret)
	if out["status"] != "pending" {
		t.Fatalf("got %v", out)
	}
}

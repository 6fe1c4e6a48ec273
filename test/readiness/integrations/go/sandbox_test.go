package shop_test

// The sandbox's control plane (docs/CONTROL-PLANE.md), driven over HTTP with the admin token
// `pix-sandbox exec` gives: a company per test, faults, outcomes, the clock, subscriptions,
// chaos and the receiver check.

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	shop "example.com/pixshop"
)

var (
	sandboxURL = os.Getenv("PIX_SANDBOX_URL")
	adminToken = os.Getenv("PIX_SANDBOX_ADMIN_TOKEN")
	plain      = &http.Client{Timeout: 20 * time.Second}
)

// control calls the control plane with the admin token and decodes a 2xx answer into out; any
// other answer fails the test.
func control(t *testing.T, method, path string, body, out any) {
	t.Helper()
	status, raw := controlAs(t, "Bearer "+adminToken, method, path, body)
	if status/100 != 2 {
		t.Fatalf("%s %s: %d %s", method, path, status, raw)
	}
	if out != nil {
		if err := json.Unmarshal(raw, out); err != nil {
			t.Fatalf("%s %s: %v in %s", method, path, err, raw)
		}
	}
}

func controlAs(t *testing.T, authorization, method, path string, body any) (int, []byte) {
	t.Helper()
	var reader io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			t.Fatal(err)
		}
		reader = bytes.NewReader(raw)
	}
	req, err := http.NewRequest(method, sandboxURL+"/_sandbox"+path, reader)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", authorization)
	req.Header.Set("Accept", "application/json")
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := plain.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer res.Body.Close()
	raw, _ := io.ReadAll(res.Body)
	return res.StatusCode, raw
}

// tenant is a company of the test's own (POST /_sandbox/companies), so that no other test's
// calls can read as a retry of its calls.
type tenant struct {
	CompanyID    string `json:"company_id"`
	UserID       string `json:"user_id"`
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
}

// newTenant makes a company with an opening balance. Under PIX_TIDY=1 it is deleted when the test
// ends, as tidy suites do; the readiness report must keep what it raised (issue 42, case 6).
func newTenant(t *testing.T, balance int64) tenant {
	t.Helper()
	var tn tenant
	control(t, "POST", "/companies", map[string]any{"name": "Go " + t.Name(), "balance": balance}, &tn)
	if os.Getenv("PIX_TIDY") == "1" {
		t.Cleanup(func() { control(t, "DELETE", "/companies/"+tn.CompanyID, nil, nil) })
	}
	return tn
}

func (tn tenant) client(timeout time.Duration) *shop.Client {
	return shop.NewClient(os.Getenv("PIX_BASE_URL"), tn.ClientID, tn.ClientSecret, timeout)
}

func (tn tenant) basic() string {
	return "Basic " + base64.StdEncoding.EncodeToString([]byte(tn.ClientID+":"+tn.ClientSecret))
}

// records reconciles from the company's own transfers in the control plane.
func (tn tenant) records() *shop.SandboxRecords {
	return &shop.SandboxRecords{SandboxURL: sandboxURL, ClientID: tn.ClientID, ClientSecret: tn.ClientSecret, HTTP: plain}
}

func (tn tenant) checkout() *shop.Checkout {
	return &shop.Checkout{Client: tn.client(10 * time.Second), Attempts: 4}
}

func (tn tenant) payouts(patience time.Duration, reconcilers ...shop.Reconciler) *shop.PayoutService {
	return &shop.PayoutService{Client: tn.client(10 * time.Second), Reconcilers: reconcilers, Patience: patience}
}

// fault strikes the company's next contract calls (POST /_sandbox/faults).
func (tn tenant) fault(t *testing.T, f map[string]any) {
	t.Helper()
	f["company_id"] = tn.CompanyID
	control(t, "POST", "/faults", f, nil)
}

func (tn tenant) balance(t *testing.T) int64 {
	t.Helper()
	var b struct {
		Balance int64 `json:"balance"`
	}
	control(t, "GET", "/users/"+tn.UserID+"/balance", nil, &b)
	return b.Balance
}

// count is how many of the company's contract calls the journal holds for a path and status
// (GET /_sandbox/requests/count with the company's credentials: its own calls only).
func (tn tenant) count(t *testing.T, path string, status int) int {
	t.Helper()
	code, raw := controlAs(t, tn.basic(), "GET", fmt.Sprintf("/requests/count?path=/api/v1%s&status=%d", path, status), nil)
	var c struct {
		Count int `json:"count"`
	}
	if code != 200 || json.Unmarshal(raw, &c) != nil {
		t.Fatalf("requests/count: %d %s", code, raw)
	}
	return c.Count
}

// webhook is a subscription (docs/WEBHOOKS.md).
type webhook struct {
	ID     string `json:"id"`
	URL    string `json:"url"`
	Secret string `json:"secret"`
}

// subscribe subscribes url to the company's events; the subscription is removed when the test
// ends, before its receiver closes, so no later delivery goes to a closed port.
func (tn tenant) subscribe(t *testing.T, url, secret string) webhook {
	t.Helper()
	body := map[string]any{"url": url, "company_id": tn.CompanyID}
	if secret != "" {
		body["secret"] = secret
	}
	var wh webhook
	control(t, "POST", "/webhooks", body, &wh)
	t.Cleanup(func() { control(t, "DELETE", "/webhooks/"+wh.ID, nil, nil) })
	return wh
}

// receive starts the shop's receiver for the company and subscribes it, with a secret of its own.
func (tn tenant) receive(t *testing.T) (*shop.Receiver, webhook, *httptest.Server) {
	t.Helper()
	secret := newSecret(t)
	rcv, err := shop.NewReceiver(secret)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(rcv)
	t.Cleanup(srv.Close)
	return rcv, tn.subscribe(t, srv.URL+"/webhooks/pix", secret), srv
}

func newSecret(t *testing.T) string {
	key := make([]byte, 24)
	if _, err := rand.Read(key); err != nil {
		t.Fatal(err)
	}
	return "whsec_" + base64.StdEncoding.EncodeToString(key)
}

// delivery is a webhook delivery with its attempts.
type delivery struct {
	ID        string `json:"id"`
	EventType string `json:"event_type"`
	Status    string `json:"status"`
	Body      struct {
		Data map[string]any `json:"data"`
	} `json:"body"`
	Attempts []struct {
		StatusCode *int    `json:"status_code"`
		Error      *string `json:"error"`
		Chaos      *string `json:"chaos"` // what chaos did to it: "duplicate", "bad_signature"...
	} `json:"attempts"`
}

func deliveries(t *testing.T, wh webhook) []delivery {
	t.Helper()
	var page struct {
		Data []delivery `json:"data"`
	}
	control(t, "GET", "/webhooks/deliveries?limit=500&webhook_id="+wh.ID, nil, &page)
	return page.Data
}

// await polls the subscription's deliveries until one satisfies done (each poll is a read of the
// control plane, not a change). It fails the test at once when the receiver refused a delivery of
// the awaited kind that chaos did not sign wrongly, rather than waiting for the deadline.
func await(t *testing.T, wh webhook, eventType, transactionID string, done func(delivery) bool) delivery {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		for _, d := range deliveries(t, wh) {
			if d.EventType != eventType || (transactionID != "" && d.Body.Data["transaction_id"] != transactionID) {
				continue
			}
			if done(d) {
				return d
			}
			for _, a := range d.Attempts {
				if a.StatusCode != nil && *a.StatusCode/100 != 2 && (a.Chaos == nil || *a.Chaos != "bad_signature") {
					t.Fatalf("the receiver refused a %s delivery: %d", eventType, *a.StatusCode)
				}
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %s delivery of %q done within 20 s", eventType, transactionID)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func delivered(d delivery) bool { return d.Status == "delivered" }

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

func uniqueKey(t *testing.T) string {
	return strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name())) + "@seller.example"
}

package shop_test

// The shop's suite: what a merchant tests of its own integration, one company per test. Run
// under `pix-sandbox exec` it meets the readiness catalog and must raise no finding, in any order.

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	shop "example.com/pixshop"
)

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

func status(err error) int {
	var api *shop.APIError
	if errors.As(err, &api) {
		return api.Status
	}
	return 0
}

func TestCheckoutCreatesACharge(t *testing.T) {
	tn := newTenant(t, 0)
	charge, err := tn.checkout().Create(ctx(t), 1000, "Pedido 1")
	must(t, err)
	if charge.Status != "pending" || !strings.HasPrefix(charge.QRCode, "000201") {
		t.Fatalf("got %+v", charge)
	}
}

func TestCompanyIsRead(t *testing.T) {
	company, err := shop.ClientFromEnv(10 * time.Second).Company(ctx(t))
	must(t, err)
	if !company.APIActive {
		t.Fatalf("got %+v", company)
	}
}

func TestWrongSecretIsRefusedEverywhere(t *testing.T) {
	tn := newTenant(t, 10_000)
	c := shop.NewClient(os.Getenv("PIX_BASE_URL"), tn.ClientID, "wrong-secret", 10*time.Second)
	_, charge := c.CreateCharge(ctx(t), 1000, "")
	_, transfer := c.SendTransfer(ctx(t), shop.TransferRequest{Amount: 1000, PixKey: "maria@example.com", PixType: "EMAIL"})
	_, company := c.Company(ctx(t))
	for _, err := range []error{charge, transfer, company} {
		if status(err) != 401 || !shop.Permanent(err) {
			t.Fatalf("got %v", err)
		}
	}
}

func TestInactiveCompanyIsRefusedOnce(t *testing.T) {
	tn := newTenant(t, 10_000)
	control(t, "PATCH", "/companies/"+tn.CompanyID, map[string]any{"api_active": false}, nil)
	_, err := tn.checkout().Create(ctx(t), 1000, "")
	_, perr := tn.payouts(0).Pay(ctx(t), shop.Order{ID: "403", Amount: 1000, PixKey: "maria@example.com", PixType: "EMAIL"})
	if status(err) != 403 || status(perr) != 403 {
		t.Fatalf("got %v, %v", err, perr)
	}
	if n := tn.count(t, "/hub/transactions/in", 403); n != 1 {
		t.Fatalf("the charge was tried %d times", n)
	}
	control(t, "PATCH", "/companies/"+tn.CompanyID, map[string]any{"api_active": true}, nil)
}

func TestInvalidBodiesAreRefused(t *testing.T) {
	tn := newTenant(t, 10_000)
	_, err := tn.client(10*time.Second).CreateCharge(ctx(t), 0, "")
	_, terr := tn.client(10*time.Second).SendTransfer(ctx(t), shop.TransferRequest{Amount: 1000, PixKey: "maria@example.com", PixType: "CPF"})
	if status(err) != 422 || status(terr) != 422 || !strings.HasPrefix(err.Error(), "pix: 422 amount") {
		t.Fatalf("got %v, %v", err, terr)
	}
}

// The validation errors of the real service's framework: a list (docs/CONTRACT.md).
func TestInvalidBodiesInTheFastapiStyle(t *testing.T) {
	tn := newTenant(t, 10_000)
	style := func(s string) {
		control(t, "POST", "/scenarios", map[string]any{"document": map[string]any{"settings": map[string]any{"validation_errors": s}}}, nil)
	}
	style("fastapi")
	t.Cleanup(func() { style("simple") })
	_, err := tn.client(10*time.Second).CreateCharge(ctx(t), 0, "")
	_, terr := tn.client(10*time.Second).SendTransfer(ctx(t), shop.TransferRequest{Amount: 1000, PixKey: "maria@example.com", PixType: "CPF"})
	if status(err) != 422 || !strings.Contains(err.Error(), `"loc":["body","amount"]`) ||
		status(terr) != 422 || !strings.Contains(terr.Error(), `"loc":["body","pix_key"]`) {
		t.Fatalf("got %v, %v", err, terr)
	}
}

func TestNoProviderIsSurfacedNotRetried(t *testing.T) {
	tn := newTenant(t, 10_000)
	control(t, "PUT", "/users/"+tn.UserID+"/providers", map[string]any{"in": nil, "out": nil}, nil)
	_, err := tn.checkout().Create(ctx(t), 1000, "")
	_, perr := tn.payouts(0).Pay(ctx(t), shop.Order{ID: "np", Amount: 1000, PixKey: "maria@example.com", PixType: "EMAIL"})
	for _, e := range []error{err, perr} {
		if status(e) != 422 || !strings.Contains(e.Error(), "Provider") {
			t.Fatalf("got %v", e)
		}
	}
	if n := tn.count(t, "/hub/transactions/in", 422); n != 1 {
		t.Fatalf("the charge was tried %d times", n)
	}
}

func TestUnsupportedOperationIsSurfaced(t *testing.T) {
	tn := newTenant(t, 10_000)
	none := map[string]any{"name": "Banco Sem Nada", "operations": []string{}}
	control(t, "PUT", "/users/"+tn.UserID+"/providers", map[string]any{"in": none, "out": none}, nil)
	_, err := tn.checkout().Create(ctx(t), 1000, "")
	_, perr := tn.payouts(0).Pay(ctx(t), shop.Order{ID: "501", Amount: 1000, PixKey: "maria@example.com", PixType: "EMAIL"})
	if status(err) != 501 || status(perr) != 501 || !shop.Permanent(err) {
		t.Fatalf("got %v, %v", err, perr)
	}
	if n := tn.count(t, "/hub/transactions/in", 501); n != 1 {
		t.Fatalf("the charge was tried %d times", n)
	}
}

func TestCharge501IsSurfaced(t *testing.T) {
	tn := newTenant(t, 0)
	tn.fault(t, map[string]any{"operation": "charge", "status": 501, "times": 1})
	if _, err := tn.checkout().Create(ctx(t), 1000, ""); status(err) != 501 {
		t.Fatalf("got %v", err)
	}
	if n := tn.count(t, "/hub/transactions/in", 200); n != 0 {
		t.Fatalf("a 501 was retried: %d charges created", n)
	}
}

func TestCharge500IsSurfaced(t *testing.T) {
	tn := newTenant(t, 0)
	tn.fault(t, map[string]any{"operation": "charge", "status": 500, "times": 1})
	if _, err := tn.checkout().Create(ctx(t), 1000, ""); status(err) != 500 {
		t.Fatalf("got %v", err)
	}
}

func TestCheckoutWaitsRetryAfter(t *testing.T) {
	tn := newTenant(t, 0)
	tn.fault(t, map[string]any{"operation": "charge", "status": 503, "times": 1, "retry_after": 1})
	start := time.Now()
	charge, err := tn.checkout().Create(ctx(t), 1000, "")
	must(t, err)
	if charge.Status != "pending" || time.Since(start) < time.Second {
		t.Fatalf("got %+v after %v", charge, time.Since(start))
	}
}

func TestPayoutSucceeds(t *testing.T) {
	tn := newTenant(t, 10_000)
	p, err := tn.payouts(0).Pay(ctx(t), shop.Order{ID: "1", Amount: 1000, PixKey: "maria@example.com", PixType: "EMAIL"})
	must(t, err)
	if p.Status != "success" || tn.balance(t) != 9_000 {
		t.Fatalf("got %+v", p)
	}
}

func TestInsufficientBalanceIsSurfaced(t *testing.T) {
	tn := newTenant(t, 0)
	_, err := tn.payouts(0).Pay(ctx(t), shop.Order{ID: "2", Amount: 1000, PixKey: "maria@example.com", PixType: "EMAIL"})
	if status(err) != 422 || !strings.Contains(err.Error(), "Insufficient balance") {
		t.Fatalf("got %v", err)
	}
}

// A queued outcome and an inactive key: both fail, and the webhook says so.
func TestFailedPayouts(t *testing.T) {
	tn := newTenant(t, 10_000)
	rcv, wh, _ := tn.receive(t)
	control(t, "POST", "/outcomes", map[string]any{"status": "failed", "message": "Fila cheia", "times": 1, "company_id": tn.CompanyID}, nil)
	p, err := tn.payouts(0).Pay(ctx(t), shop.Order{ID: "3", Amount: 1000, PixKey: "maria@example.com", PixType: "EMAIL"})
	must(t, err)
	q, err := tn.payouts(0).Pay(ctx(t), shop.Order{ID: "4", Amount: 1200, PixKey: "failed@pix.example", PixType: "EMAIL"})
	must(t, err)
	if p.Status != "failed" || q.Status != "failed" || tn.balance(t) != 10_000 {
		t.Fatalf("got %+v, %+v", p, q)
	}
	await(t, wh, "transfer.failed", q.TransactionID, delivered)
	if rec, _ := rcv.Find(ctx(t), 1200, "failed@pix.example", "Order 4"); rec == nil || rec.Status != "failed" {
		t.Fatalf("the receiver has %+v", rec)
	}
}

// A transfer that pends, settled by moving the sandbox's clock (its rule: 60 s later).
func TestPendingPayoutSettles(t *testing.T) {
	tn := newTenant(t, 10_000)
	rcv, wh, _ := tn.receive(t)
	p, err := tn.payouts(0).Pay(ctx(t), shop.Order{ID: "5", Amount: 1000, PixKey: "pending@pix.example", PixType: "EMAIL"})
	must(t, err)
	if p.Status != "pending" {
		t.Fatalf("got %+v", p)
	}
	await(t, wh, "transfer.pending", p.TransactionID, delivered)
	control(t, "POST", "/clock/advance", map[string]any{"seconds": 60}, nil)
	await(t, wh, "transfer.succeeded", p.TransactionID, delivered)
	if rec, _ := rcv.Find(ctx(t), 1000, "pending@pix.example", "Order 5"); rec == nil || rec.Status != "success" {
		t.Fatalf("the receiver has %+v", rec)
	}
}

func TestPayout500IsLeftUnresolved(t *testing.T) {
	tn := newTenant(t, 10_000)
	tn.fault(t, map[string]any{"operation": "transfer", "status": 500, "times": 1})
	order := shop.Order{ID: "6", Amount: 1300, PixKey: uniqueKey(t), PixType: "EMAIL"}
	p, err := tn.payouts(300*time.Millisecond, tn.records()).Pay(ctx(t), order)
	if !errors.Is(err, shop.ErrUnresolved) || p.Status != "unresolved" || tn.balance(t) != 10_000 {
		t.Fatalf("got %+v, %v", p, err)
	}
}

func TestPayout503IsLeftUnresolved(t *testing.T) {
	tn := newTenant(t, 10_000)
	tn.fault(t, map[string]any{"operation": "transfer", "status": 503, "times": 1})
	order := shop.Order{ID: "7", Amount: 1400, PixKey: uniqueKey(t), PixType: "EMAIL"}
	p, err := tn.payouts(300*time.Millisecond, tn.records()).Pay(ctx(t), order)
	if !errors.Is(err, shop.ErrUnresolved) || p.Status != "unresolved" || tn.balance(t) != 10_000 {
		t.Fatalf("got %+v, %v", p, err)
	}
}

// The answer is lost after the transfer went through: its transfer.succeeded webhook says so.
func TestLostPayoutIsReconciledFromItsWebhook(t *testing.T) {
	tn := newTenant(t, 10_000)
	rcv, _, _ := tn.receive(t)
	tn.fault(t, map[string]any{"operation": "transfer", "status": 500, "when": "after", "times": 1})
	order := shop.Order{ID: "8", Amount: 1500, PixKey: uniqueKey(t), PixType: "EMAIL"}
	p, err := tn.payouts(10*time.Second, rcv).Pay(ctx(t), order)
	must(t, err)
	if p.Status != "success" || !p.Reconciled || tn.balance(t) != 8_500 {
		t.Fatalf("got %+v, balance %d", p, tn.balance(t))
	}
}

// The connection is closed without an answer: the company's records say it went through.
func TestDroppedPayoutIsReconciledFromTheRecords(t *testing.T) {
	tn := newTenant(t, 10_000)
	tn.fault(t, map[string]any{"operation": "transfer", "drop": true, "times": 1})
	order := shop.Order{ID: "9", Amount: 1600, PixKey: uniqueKey(t), PixType: "EMAIL"}
	p, err := tn.payouts(5*time.Second, tn.records()).Pay(ctx(t), order)
	must(t, err)
	if p.Status != "success" || !p.Reconciled || tn.balance(t) != 8_400 {
		t.Fatalf("got %+v, balance %d", p, tn.balance(t))
	}
}

// The shop's own 1 s timeout strikes while the sandbox still processes the transfer (a 5 s
// delay): it is found once it completes, from its webhook, and not sent again. Under the
// resend_blindly bug the test ends right after the re-send, seconds before the original
// completes (issue 42, case 1).
func TestTimedOutPayoutIsReconciled(t *testing.T) {
	tn := newTenant(t, 10_000)
	rcv, _, _ := tn.receive(t)
	tn.fault(t, map[string]any{"operation": "transfer", "delay_ms": 5000, "times": 1})
	service := tn.payouts(20*time.Second, rcv, tn.records())
	service.Client = tn.client(time.Second)
	p, err := service.Pay(ctx(t), shop.Order{ID: "10", Amount: 1700, PixKey: uniqueKey(t), PixType: "EMAIL"})
	must(t, err)
	if p.Status != "success" || !p.Reconciled {
		t.Fatalf("got %+v", p)
	}
	if b := tn.balance(t); b != 8_300 {
		t.Fatalf("balance %d", b)
	}
}

// Every delivery comes twice (chaos): the order is credited once.
func TestChargePaidIsCreditedOnce(t *testing.T) {
	tn := newTenant(t, 0)
	rcv, wh, _ := tn.receive(t)
	control(t, "PUT", "/webhooks/"+wh.ID+"/chaos", map[string]any{"duplicate": 1}, nil)
	charge, err := tn.checkout().Create(ctx(t), 2000, "Pedido 2")
	must(t, err)
	control(t, "POST", "/charges/"+charge.TransactionID+"/pay", nil, nil)
	await(t, wh, "charge.paid", charge.TransactionID, func(d delivery) bool { return answered(d) >= 2 })
	if n := rcv.Credited(charge.TransactionID); n != 1 {
		t.Fatalf("credited %d times", n)
	}
}

// answered counts a delivery's attempts the receiver answered 2xx.
func answered(d delivery) int {
	n := 0
	for _, a := range d.Attempts {
		if a.StatusCode != nil && *a.StatusCode/100 == 2 {
			n++
		}
	}
	return n
}

func TestCancelledChargeIsNotified(t *testing.T) {
	tn := newTenant(t, 0)
	rcv, wh, _ := tn.receive(t)
	charge, err := tn.checkout().Create(ctx(t), 2100, "")
	must(t, err)
	control(t, "POST", "/charges/"+charge.TransactionID+"/cancel", nil, nil)
	await(t, wh, "charge.cancelled", charge.TransactionID, delivered)
	if _, err := rcv.Wait(ctx(t), func(e shop.Event) bool { return e.Type == "charge.cancelled" }); err != nil {
		t.Fatal(err)
	}
}

// A delivery dropped by chaos, then retried by hand, is taken.
func TestDroppedWebhookIsRetried(t *testing.T) {
	tn := newTenant(t, 0)
	_, wh, _ := tn.receive(t)
	control(t, "PUT", "/webhooks/"+wh.ID+"/chaos", map[string]any{"drop": 1}, nil)
	control(t, "POST", "/webhooks/"+wh.ID+"/test", nil, nil)
	d := await(t, wh, "webhook.test", "", func(d delivery) bool { return len(d.Attempts) > 0 })
	control(t, "DELETE", "/webhooks/"+wh.ID+"/chaos", nil, nil)
	control(t, "POST", "/webhooks/deliveries/"+d.ID+"/retry", nil, nil)
	await(t, wh, "webhook.test", "", delivered)
}

// The receiver check (docs/READINESS.md): signatures, stale timestamps, duplicates, unknown types.
func TestReceiverPassesTheCheck(t *testing.T) {
	tn := newTenant(t, 0)
	_, wh, _ := tn.receive(t)
	var check struct {
		Passed bool `json:"passed"`
		Checks []struct {
			ID     string  `json:"id"`
			Status any     `json:"status"`
			MS     float64 `json:"ms"`
			Passed bool    `json:"passed"`
		} `json:"checks"`
	}
	control(t, "POST", "/webhooks/"+wh.ID+"/check", nil, &check)
	t.Logf("%+v", check.Checks)
	if !check.Passed {
		t.Fatalf("got %+v", check)
	}
}

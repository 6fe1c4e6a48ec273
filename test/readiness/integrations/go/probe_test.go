package shop_test

// Probes: correct integrations that do something unusual. None may raise a finding
// (docs/READINESS.md, "A report never cries wolf"); each is run under exec on its own.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	shop "example.com/pixshop"
)

// Issue 42, case 2: the first payout's answer is lost, it is reconciled as paid from its
// transfer.succeeded webhook, and only then a different order is paid to the same seller, for the
// same amount, with its own description. Two orders, two payouts: no error.
func TestProbeSecondOrderAfterAReconciledOne(t *testing.T) {
	tn := newTenant(t, 10_000)
	rcv, _, _ := tn.receive(t)
	tn.fault(t, map[string]any{"operation": "transfer", "status": 500, "when": "after", "times": 1})
	key := uniqueKey(t)
	first, err := tn.payouts(10*time.Second, rcv).Pay(ctx(t), shop.Order{ID: "A-1", Amount: 1800, PixKey: key, PixType: "EMAIL"})
	must(t, err)
	if first.Status != "success" || !first.Reconciled {
		t.Fatalf("got %+v", first)
	}
	second, err := tn.payouts(10*time.Second, rcv).Pay(ctx(t), shop.Order{ID: "A-2", Amount: 1800, PixKey: key, PixType: "EMAIL"})
	must(t, err)
	if second.Status != "success" || second.TransactionID == first.TransactionID || tn.balance(t) != 6_400 {
		t.Fatalf("got %+v, %+v, balance %d", first, second, tn.balance(t))
	}
}

// Issue 42, case 3: a receiver URL takes one company's genuine deliveries; a second company then
// subscribes the same URL with a secret the receiver does not hold, and is refused (401), as it
// must be. The receiver refuses no genuine delivery of its own.
func TestProbeAnotherCompanySubscribesTheSameURL(t *testing.T) {
	mine := newTenant(t, 10_000)
	_, wh, _ := mine.receive(t)
	p, err := mine.payouts(0).Pay(ctx(t), shop.Order{ID: "B-1", Amount: 1000, PixKey: "maria@example.com", PixType: "EMAIL"})
	must(t, err)
	await(t, wh, "transfer.succeeded", p.TransactionID, delivered)

	other := newTenant(t, 10_000)
	theirs := other.subscribe(t, wh.URL, "") // a secret generated for them, which the receiver never saw
	q, err := other.payouts(0).Pay(ctx(t), shop.Order{ID: "B-2", Amount: 1000, PixKey: "maria@example.com", PixType: "EMAIL"})
	must(t, err)
	refused(t, theirs, "transfer.succeeded", q.TransactionID)
}

// refused waits until the receiver has answered a delivery of the subscription 401.
func refused(t *testing.T, wh webhook, eventType, transactionID string) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for time.Now().Before(deadline) {
		for _, d := range deliveries(t, wh) {
			if d.EventType != eventType || d.Body.Data["transaction_id"] != transactionID {
				continue
			}
			for _, a := range d.Attempts {
				if a.StatusCode != nil {
					if *a.StatusCode != 401 {
						t.Fatalf("the receiver answered %d", *a.StatusCode)
					}
					return
				}
			}
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Fatalf("no %s delivery of %s answered within 20 s", eventType, transactionID)
}

// Two orders to the same seller for the same amount, sent side by side, nothing lost.
func TestProbeTwoOrdersSideBySide(t *testing.T) {
	tn := newTenant(t, 10_000)
	key := uniqueKey(t)
	var wg sync.WaitGroup
	for _, id := range []string{"C-1", "C-2"} {
		wg.Add(1)
		go func(id string) {
			defer wg.Done()
			p, err := tn.payouts(0).Pay(context.Background(), shop.Order{ID: id, Amount: 1900, PixKey: key, PixType: "EMAIL"})
			if err != nil || p.Status != "success" {
				t.Errorf("%s: %+v %v", id, p, err)
			}
		}(id)
	}
	wg.Wait()
	if b := tn.balance(t); b != 6_200 {
		t.Fatalf("balance %d", b)
	}
}

// Headers other clients send: Accept */* or in capitals, a charset on the JSON content type.
func TestProbeUnusualButValidHeaders(t *testing.T) {
	tn := newTenant(t, 0)
	for _, h := range [][2]string{
		{"*/*", "application/json; charset=utf-8"},
		{"Application/JSON", "Application/JSON"},
		{"application/*", "application/json;charset=UTF-8"},
	} {
		req, err := http.NewRequest("POST", os.Getenv("PIX_BASE_URL")+"/hub/transactions/in", strings.NewReader(`{"amount": 1000}`))
		must(t, err)
		req.Header.Set("Authorization", tn.basic())
		req.Header.Set("Accept", h[0])
		req.Header.Set("Content-Type", h[1])
		res, err := plain.Do(req)
		must(t, err)
		res.Body.Close()
		if res.StatusCode != 200 {
			t.Fatalf("%v: %d", h, res.StatusCode)
		}
	}
}

// The shop rotates its webhook secret: a new subscription to the same URL, the old one left behind
// by mistake. The receiver holds only the new secret and refuses the old subscription's
// deliveries; it refuses no genuine delivery (docs/READINESS.md: judged on every delivery).
func TestProbeOldSubscriptionToTheSameURL(t *testing.T) {
	tn := newTenant(t, 0)
	first := newSecret(t)
	rcv, err := shop.NewReceiver(first)
	must(t, err)
	var handler atomic.Value
	handler.Store(rcv)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		handler.Load().(*shop.Receiver).ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	old := tn.subscribe(t, srv.URL+"/webhooks/pix", first)
	a, err := tn.checkout().Create(ctx(t), 2200, "")
	must(t, err)
	control(t, "POST", "/charges/"+a.TransactionID+"/pay", nil, nil)
	await(t, old, "charge.paid", a.TransactionID, delivered)

	second := newSecret(t)
	rotated, err := shop.NewReceiver(second)
	must(t, err)
	handler.Store(rotated)
	current := tn.subscribe(t, srv.URL+"/webhooks/pix", second)
	b, err := tn.checkout().Create(ctx(t), 2300, "")
	must(t, err)
	control(t, "POST", "/charges/"+b.TransactionID+"/pay", nil, nil)
	await(t, current, "charge.paid", b.TransactionID, delivered)
	refused(t, old, "charge.paid", b.TransactionID)
	if rotated.Credited(b.TransactionID) != 1 {
		t.Fatal("the payment was not credited once")
	}
}

// Two tests on one company: the first leaves a payout unresolved after a 500; the second starts
// with a control call (an outcome) and sends the very same transfer. docs/READINESS.md: a control
// call that changes something marks a new test, so that call is no retry.
func TestProbeSameTransferInTheNextTest(t *testing.T) {
	tn := newTenant(t, 10_000)
	tn.fault(t, map[string]any{"operation": "transfer", "status": 500, "times": 1})
	order := shop.Order{ID: "D-1", Amount: 2400, PixKey: uniqueKey(t), PixType: "EMAIL"}
	if _, err := tn.payouts(300*time.Millisecond, tn.records()).Pay(ctx(t), order); err != shop.ErrUnresolved {
		t.Fatalf("got %v", err)
	}
	// The next test.
	control(t, "POST", "/outcomes", map[string]any{"status": "success", "times": 1, "company_id": tn.CompanyID}, nil)
	p, err := tn.payouts(0).Pay(ctx(t), order)
	must(t, err)
	if p.Status != "success" {
		t.Fatalf("got %+v", p)
	}
}

// A 503 without Retry-After: the checkout backs off on its own and tries again.
func TestProbeCheckoutBacksOffWithoutRetryAfter(t *testing.T) {
	tn := newTenant(t, 0)
	tn.fault(t, map[string]any{"operation": "charge", "status": 503, "times": 2})
	charge, err := tn.checkout().Create(ctx(t), 1000, "")
	must(t, err)
	if charge.Status != "pending" {
		t.Fatalf("got %+v", charge)
	}
}

// A lost payout reconciled from the records, then another order to the same seller for another
// amount at once.
func TestProbeOtherAmountRightAfterALostAnswer(t *testing.T) {
	tn := newTenant(t, 10_000)
	tn.fault(t, map[string]any{"operation": "transfer", "status": 500, "when": "after", "times": 1})
	key := uniqueKey(t)
	p, err := tn.payouts(5*time.Second, tn.records()).Pay(ctx(t), shop.Order{ID: "E-1", Amount: 2500, PixKey: key, PixType: "EMAIL"})
	must(t, err)
	q, err := tn.payouts(0).Pay(ctx(t), shop.Order{ID: "E-2", Amount: 2600, PixKey: key, PixType: "EMAIL"})
	must(t, err)
	if !p.Reconciled || q.Status != "success" || tn.balance(t) != 4_900 {
		t.Fatalf("got %+v, %+v", p, q)
	}
}

// A 501 surfaced, the Provider fixed by someone (a control call), the same charge created again.
func TestProbeSameChargeAfterTheProviderWasFixed(t *testing.T) {
	tn := newTenant(t, 0)
	providers := func(ops []string) {
		control(t, "PUT", "/users/"+tn.UserID+"/providers", map[string]any{
			"in": map[string]any{"name": "Banco Exemplo", "operations": ops}, "out": nil,
		}, nil)
	}
	providers([]string{})
	if _, err := tn.checkout().Create(ctx(t), 2700, "Pedido 27"); status(err) != 501 {
		t.Fatalf("got %v", err)
	}
	providers([]string{"charge"})
	_, err := tn.checkout().Create(ctx(t), 2700, "Pedido 27")
	must(t, err)
}

// Chaos signs a delivery with a wrong key: refused; once chaos stops, its retry is taken.
func TestProbeBadSignatureFromChaosIsRefusedThenTaken(t *testing.T) {
	tn := newTenant(t, 0)
	rcv, wh, _ := tn.receive(t)
	control(t, "PUT", "/webhooks/"+wh.ID+"/chaos", map[string]any{"bad_signature": 1}, nil)
	charge, err := tn.checkout().Create(ctx(t), 2800, "")
	must(t, err)
	control(t, "POST", "/charges/"+charge.TransactionID+"/pay", nil, nil)
	refused(t, wh, "charge.paid", charge.TransactionID)
	control(t, "DELETE", "/webhooks/"+wh.ID+"/chaos", nil, nil)
	for _, d := range deliveries(t, wh) {
		if d.EventType == "charge.paid" {
			control(t, "POST", "/webhooks/deliveries/"+d.ID+"/retry", nil, nil)
		}
	}
	await(t, wh, "charge.paid", charge.TransactionID, func(d delivery) bool { return answered(d) > 0 })
	if rcv.Credited(charge.TransactionID) != 1 {
		t.Fatal("not credited once")
	}
}

// Deliveries held and sent newest first (chaos reorder): each payment credited once.
func TestProbeReorderedDeliveries(t *testing.T) {
	tn := newTenant(t, 0)
	rcv, wh, _ := tn.receive(t)
	control(t, "PUT", "/webhooks/"+wh.ID+"/chaos", map[string]any{"reorder": true}, nil)
	var ids []string
	for _, amount := range []int64{2900, 3000} {
		charge, err := tn.checkout().Create(ctx(t), amount, "")
		must(t, err)
		control(t, "POST", "/charges/"+charge.TransactionID+"/pay", nil, nil)
		ids = append(ids, charge.TransactionID)
	}
	for _, id := range ids {
		await(t, wh, "charge.paid", id, delivered)
		if rcv.Credited(id) != 1 {
			t.Fatalf("%s credited %d times", id, rcv.Credited(id))
		}
	}
}

// The checkout gives up on a charge the sandbox holds for 3 s (its own 1 s timeout, no retry: a
// charge is no payout, a person tries again) and the suite ends while the sandbox still works.
func TestProbeSuiteEndsWhileAChargeIsDelayed(t *testing.T) {
	tn := newTenant(t, 0)
	tn.fault(t, map[string]any{"operation": "charge", "delay_ms": 3000, "times": 1})
	checkout := &shop.Checkout{Client: tn.client(time.Second), Attempts: 4}
	if _, err := checkout.Create(ctx(t), 3100, ""); !shop.Timeout(err) {
		t.Fatalf("got %v", err)
	}
}

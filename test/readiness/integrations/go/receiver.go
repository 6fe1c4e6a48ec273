package shop

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Event is a webhook the receiver took.
type Event struct {
	ID   string         // webhook-id
	Type string         `json:"type"`
	Data map[string]any `json:"data"`
}

// Receiver is the shop's webhook endpoint (Standard Webhooks, docs/WEBHOOKS.md): it verifies the
// signature and the timestamp, answers 2xx to event types it does not handle, and processes each
// webhook-id once, however often it comes.
type Receiver struct {
	key        []byte // the bytes the whsec_ secret encodes
	secretText string

	mu        sync.Mutex
	processed map[string]bool // webhook-ids already processed
	events    []Event         // what was processed, in order
	credits   map[string]int  // charge transaction_id: times its order was credited
	changed   chan struct{}   // closed when an event is processed
}

// Tolerance is how far a webhook-timestamp may be from the receiver's clock.
const Tolerance = 5 * time.Minute

// NewReceiver takes the subscription's whsec_ secret.
func NewReceiver(secret string) (*Receiver, error) {
	key, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(secret, "whsec_"))
	if err != nil || !strings.HasPrefix(secret, "whsec_") {
		return nil, fmt.Errorf("not a whsec_ secret")
	}
	return &Receiver{
		key: key, secretText: secret,
		processed: map[string]bool{}, credits: map[string]int{}, changed: make(chan struct{}),
	}, nil
}

func (r *Receiver) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, req.Body, 1<<20))
	if err != nil || req.Method != http.MethodPost {
		http.Error(w, "bad request", http.StatusBadRequest)
		return
	}
	id := req.Header.Get("webhook-id")
	if status, why := r.verify(id, req.Header.Get("webhook-timestamp"), req.Header.Get("webhook-signature"), body); status != 0 {
		http.Error(w, why, status)
		return
	}
	var ev Event
	if err := json.Unmarshal(body, &ev); err != nil {
		http.Error(w, "not JSON", http.StatusBadRequest)
		return
	}
	ev.ID = id
	if Bug("slow_receiver") {
		time.Sleep(9 * time.Second) // does the order's work (books, mails) before answering
	}
	w.WriteHeader(r.process(ev))
}

// verify answers 0 when the delivery is genuine and fresh, else the status to refuse it with.
func (r *Receiver) verify(id, timestamp, signature string, body []byte) (int, string) {
	if id == "" || timestamp == "" || signature == "" {
		return http.StatusBadRequest, "missing webhook headers"
	}
	ts, err := strconv.ParseInt(timestamp, 10, 64)
	if err != nil {
		return http.StatusBadRequest, "bad webhook-timestamp"
	}
	if math.Abs(float64(time.Now().Unix()-ts)) > Tolerance.Seconds() && !Bug("no_timestamp_check") {
		return http.StatusUnauthorized, "stale webhook-timestamp"
	}
	key := r.key
	if Bug("hmac_text_key") {
		key = []byte(r.secretText)
	}
	mac := hmac.New(sha256.New, key)
	mac.Write([]byte(id + "." + timestamp + "."))
	mac.Write(body)
	want := mac.Sum(nil)
	for _, entry := range strings.Fields(signature) {
		version, sig, ok := strings.Cut(entry, ",")
		got, err := base64.StdEncoding.DecodeString(sig)
		if ok && version == "v1" && err == nil && hmac.Equal(got, want) {
			return 0, ""
		}
	}
	if Bug("accept_bad_signature") {
		return 0, ""
	}
	return http.StatusUnauthorized, "bad signature"
}

// process handles a verified event once per webhook-id and answers the status to send.
func (r *Receiver) process(ev Event) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.processed[ev.ID] {
		if Bug("reject_duplicate") {
			return http.StatusConflict
		}
		return http.StatusNoContent // taken already: acknowledged, not processed twice
	}
	switch ev.Type {
	case "charge.paid", "charge.cancelled", "transfer.pending", "transfer.succeeded", "transfer.failed":
	default:
		if Bug("unknown_type_400") {
			return http.StatusBadRequest
		}
		r.processed[ev.ID] = true
		return http.StatusNoContent // not ours to handle: acknowledged, ignored
	}
	r.processed[ev.ID] = true
	if test, _ := ev.Data["test"].(bool); test {
		return http.StatusNoContent // the receiver check's messages: nothing to book
	}
	if ev.Type == "charge.paid" {
		id, _ := ev.Data["transaction_id"].(string)
		r.credits[id]++
	}
	r.events = append(r.events, ev)
	close(r.changed)
	r.changed = make(chan struct{})
	return http.StatusNoContent
}

// Credited tells how many times the order of a charge was credited.
func (r *Receiver) Credited(transactionID string) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.credits[transactionID]
}

// Wait gives the first event processed that matches, waiting for it until ctx ends.
func (r *Receiver) Wait(ctx context.Context, match func(Event) bool) (Event, error) {
	for {
		r.mu.Lock()
		for _, ev := range r.events {
			if match(ev) {
				r.mu.Unlock()
				return ev, nil
			}
		}
		changed := r.changed
		r.mu.Unlock()
		select {
		case <-ctx.Done():
			return Event{}, ctx.Err()
		case <-changed:
		}
	}
}

// Find reconciles a payout from its transfer.* webhooks (Reconciler).
func (r *Receiver) Find(_ context.Context, amount int64, pixKey, description string) (*Record, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	var found *Record
	for _, ev := range r.events {
		if !strings.HasPrefix(ev.Type, "transfer.") {
			continue
		}
		a, _ := ev.Data["amount"].(float64)
		key, _ := ev.Data["pix_key"].(string)
		desc, _ := ev.Data["description"].(string)
		if int64(a) == amount && key == pixKey && desc == description {
			id, _ := ev.Data["transaction_id"].(string)
			status, _ := ev.Data["status"].(string)
			found = &Record{TransactionID: id, Status: status, Amount: amount, PixKey: key, Description: desc}
		}
	}
	return found, nil // the newest event of the transfer wins: pending, then succeeded or failed
}

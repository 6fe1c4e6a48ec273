package shop

import (
	"context"
	"errors"
	"time"
)

// Order is money the shop owes a seller: one payout.
type Order struct {
	ID      string
	Amount  int64 // cents
	PixKey  string
	PixType string
}

// Description is what the shop sends with the order's transfer, so that the transfer can be found
// again by it (a transfer.* webhook carries amount, pix_key and description: docs/WEBHOOKS.md).
func (o Order) Description() string { return "Order " + o.ID }

// Payout is what the shop knows of an order's transfer.
type Payout struct {
	Status        string // success, pending, failed (the transfer's), or unresolved
	TransactionID string
	Reconciled    bool // learnt from a webhook or the records, not from the answer
}

// Record is a transfer found while reconciling.
type Record struct {
	TransactionID string
	Status        string
	Amount        int64
	PixKey        string
	Description   string
}

// Reconciler finds a transfer the shop sent by what it sent. nil, nil: not seen (yet).
type Reconciler interface {
	Find(ctx context.Context, amount int64, pixKey, description string) (*Record, error)
}

// ErrUnresolved is a payout whose answer was lost and that was not found: it is left for a person
// or a later job, never sent again blindly (the API has no idempotency key).
var ErrUnresolved = errors.New("payout unresolved: its answer was lost and no record of it was found")

// PayoutService pays orders. A transfer is sent once; when its answer is lost (no answer, a 5xx
// other than 501) it is looked for, never re-sent.
type PayoutService struct {
	Client      *Client
	Reconcilers []Reconciler  // asked in turn until one knows the transfer
	Patience    time.Duration // how long to look for a lost transfer
}

// Pay sends the order's transfer; a permanent refusal (401, 403, 422, 501) is returned as is.
func (s *PayoutService) Pay(ctx context.Context, o Order) (Payout, error) {
	req := TransferRequest{Amount: o.Amount, PixKey: o.PixKey, PixType: o.PixType, Description: o.Description()}
	tr, err := s.Client.SendTransfer(ctx, req)
	if err == nil {
		return Payout{Status: tr.Status, TransactionID: tr.TransactionID}, nil
	}
	if !OutcomeUnknown(err) {
		return Payout{Status: "failed"}, err
	}
	switch {
	case Bug("resend_blindly"): // "it failed, so send it again"
		return s.resend(ctx, req)
	case Bug("resend_fresh_description"): // a new attempt, told apart by its description
		req.Description += " (attempt 2)"
		return s.resend(ctx, req)
	}
	if rec := s.reconcile(ctx, req); rec != nil {
		return Payout{Status: rec.Status, TransactionID: rec.TransactionID, Reconciled: true}, nil
	}
	return Payout{Status: "unresolved"}, ErrUnresolved
}

func (s *PayoutService) resend(ctx context.Context, req TransferRequest) (Payout, error) {
	tr, err := s.Client.SendTransfer(ctx, req)
	if err != nil {
		return Payout{Status: "unresolved"}, err
	}
	return Payout{Status: tr.Status, TransactionID: tr.TransactionID}, nil
}

// reconcile asks each reconciler, again and again, until one finds the transfer or patience ends.
func (s *PayoutService) reconcile(ctx context.Context, req TransferRequest) *Record {
	deadline := time.Now().Add(s.Patience)
	for {
		for _, r := range s.Reconcilers {
			if rec, err := r.Find(ctx, req.Amount, req.PixKey, req.Description); err == nil && rec != nil {
				return rec
			}
		}
		if time.Now().After(deadline) || sleep(ctx, 100*time.Millisecond) != nil {
			return nil
		}
	}
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

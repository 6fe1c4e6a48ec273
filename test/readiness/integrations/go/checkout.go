package shop

import (
	"context"
	"errors"
	"math/rand"
	"time"
)

// Checkout creates the charge a customer pays. A 503 is temporary: it waits the answer's
// Retry-After (or backs off) and tries again; every other error is surfaced at once, since a 501,
// a 403 or a 422 does not pass by retrying, and a 500 may have created the charge.
type Checkout struct {
	Client   *Client
	Attempts int // at most this many calls per charge
}

// Create creates a charge of amount cents.
func (c *Checkout) Create(ctx context.Context, amount int64, description string) (*Charge, error) {
	for attempt := 1; ; attempt++ {
		charge, err := c.Client.CreateCharge(ctx, amount, description)
		if err == nil || attempt >= c.Attempts {
			return charge, err
		}
		wait, again := retryDelay(err, attempt)
		if !again {
			return nil, err
		}
		if err := sleep(ctx, wait); err != nil {
			return nil, err
		}
	}
}

// retryDelay says whether a failed charge creation may be tried again, and after how long.
func retryDelay(err error, attempt int) (time.Duration, bool) {
	var api *APIError
	if !errors.As(err, &api) {
		return 0, false
	}
	backoff := time.Duration(100<<attempt) * time.Millisecond
	switch {
	case Bug("retry_every_error"): // a generic retry loop, blind to what the status means
		return backoff, true
	case api.Status != 503:
		return 0, false
	case Bug("ignore_retry_after"):
		return backoff, true
	case api.RetryAfter > 0:
		// Retry-After is a minimum: add jitter on top, so clients told the same do not come back together.
		return api.RetryAfter + time.Duration(rand.Int63n(int64(200*time.Millisecond))), true
	default:
		return backoff + time.Duration(rand.Int63n(int64(backoff))), true
	}
}

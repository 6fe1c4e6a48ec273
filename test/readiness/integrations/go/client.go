// Package shop is a small merchant integration of the PIX hub API, written from pix-sandbox's
// user docs and the OpenAPI document it serves (/openapi.json): a client, a payout service, a
// checkout and a Standard Webhooks receiver. Standard library only.
package shop

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"
)

// Client calls the hub API with HTTP Basic credentials.
type Client struct {
	BaseURL      string // e.g. http://127.0.0.1:8080/api/v1
	ClientID     string
	ClientSecret string
	HTTP         *http.Client
}

// NewClient gives a client whose calls give up after timeout (the caller's own deadline).
func NewClient(baseURL, clientID, clientSecret string, timeout time.Duration) *Client {
	return &Client{
		BaseURL:      strings.TrimRight(baseURL, "/"),
		ClientID:     clientID,
		ClientSecret: clientSecret,
		HTTP: &http.Client{
			Timeout: timeout,
			// The sandbox, like uvicorn, closes a connection idle for 5 s (docs/SECURITY.md). A POST
			// sent on a connection the server is closing fails before it is read, and Go does not
			// re-send a POST: drop idle connections first, so no payout is lost to that race.
			Transport: &http.Transport{
				Proxy:           http.ProxyFromEnvironment,
				IdleConnTimeout: 4 * time.Second,
			},
		},
	}
}

// ClientFromEnv is the shop's configuration: the address and credentials `pix-sandbox exec`
// gives (against the real service only these change).
func ClientFromEnv(timeout time.Duration) *Client {
	id, secret := os.Getenv("PIX_CLIENT_ID"), os.Getenv("PIX_CLIENT_SECRET")
	if Bug("production_keys") { // the production profile's keys, loaded by mistake
		id, secret = "production-client", "production-secret"
	}
	return NewClient(os.Getenv("PIX_BASE_URL"), id, secret, 10*time.Second)
}

// Charge is the answer to a charge creation.
type Charge struct {
	Status         string `json:"status"`
	TransactionID  string `json:"transaction_id"`
	QRCode         string `json:"qr_code"`
	QRCodeName     string `json:"qr_code_name"`
	ExpirationDate string `json:"expiration_date"`
}

// TransferRequest is a payout to a PIX key; amounts are integer cents.
type TransferRequest struct {
	Amount      int64
	PixKey      string
	PixType     string // CPF, CNPJ, EMAIL or PHONE
	Description string // empty: none
}

// Transfer is the answer to a transfer.
type Transfer struct {
	Status        string `json:"status"` // success, pending or failed
	TransactionID string `json:"transaction_id"`
	Message       string `json:"message"`
}

// Company is the caller's company.
type Company struct {
	APIActive bool   `json:"api_active"`
	CreatedAt string `json:"created_at"`
	UpdatedAt string `json:"updated_at"`
}

// APIError is an answer other than 2xx.
type APIError struct {
	Status     int
	Detail     string        // the `detail` text; a validation list (fastapi style) as its JSON
	RetryAfter time.Duration // a 503's Retry-After; 0 when absent
}

func (e *APIError) Error() string { return fmt.Sprintf("pix: %d %s", e.Status, e.Detail) }

// Permanent tells the errors no retry can change: 401, 403, 422 (a bad body, no Provider, no
// balance) and 501 (the Provider lacks the operation). Someone must change the setup first.
func Permanent(err error) bool {
	var api *APIError
	if !errors.As(err, &api) {
		return false
	}
	return api.Status == 501 || (api.Status >= 400 && api.Status < 500)
}

// OutcomeUnknown tells a call whose effect is unknown: no answer (a timeout, a dropped
// connection) or a 5xx other than 501. A payout in that state may have gone through.
func OutcomeUnknown(err error) bool {
	if err == nil {
		return false
	}
	var api *APIError
	if errors.As(err, &api) {
		return api.Status >= 500 && api.Status != 501
	}
	return true
}

// Timeout tells that the client itself gave up waiting.
func Timeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// CreateCharge creates a pending charge of amount cents.
func (c *Client) CreateCharge(ctx context.Context, amount int64, description string) (*Charge, error) {
	body := map[string]any{"amount": amountJSON(amount)}
	if description != "" {
		body["description"] = description
	}
	var out Charge
	return &out, c.do(ctx, http.MethodPost, "/hub/transactions/in", body, &out)
}

// SendTransfer sends a payout. It is never re-sent here: the API has no idempotency key.
func (c *Client) SendTransfer(ctx context.Context, tr TransferRequest) (*Transfer, error) {
	body := map[string]any{"amount": amountJSON(tr.Amount), "pix_key": tr.PixKey, "pix_type": tr.PixType}
	if tr.Description != "" {
		body["description"] = tr.Description
	}
	var out Transfer
	return &out, c.do(ctx, http.MethodPost, "/hub/transactions/out", body, &out)
}

// Company reads the caller's company.
func (c *Client) Company(ctx context.Context) (*Company, error) {
	var out Company
	return &out, c.do(ctx, http.MethodGet, "/user/company", nil, &out)
}

// amountJSON writes cents as a JSON integer; the float_amount bug writes 1000 as 1000.0.
func amountJSON(cents int64) json.Number {
	if Bug("float_amount") {
		return json.Number(strconv.FormatInt(cents, 10) + ".0")
	}
	return json.Number(strconv.FormatInt(cents, 10))
}

func (c *Client) do(ctx context.Context, method, path string, body any, out any) error {
	var reader io.Reader
	if body != nil {
		raw, err := json.Marshal(body)
		if err != nil {
			return err
		}
		reader = bytes.NewReader(raw)
	}
	if Bug("trailing_slash") {
		path += "/"
	}
	req, err := http.NewRequestWithContext(ctx, method, c.BaseURL+path, reader)
	if err != nil {
		return err
	}
	req.SetBasicAuth(c.ClientID, c.ClientSecret)
	if !Bug("no_accept") {
		req.Header.Set("Accept", "application/json")
	}
	if body != nil && !Bug("no_content_type") {
		req.Header.Set("Content-Type", "application/json")
	}
	res, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(res.Body, 1<<20))
	if err != nil {
		return err
	}
	if res.StatusCode/100 != 2 {
		return apiError(res, raw)
	}
	return json.Unmarshal(raw, out)
}

func apiError(res *http.Response, raw []byte) *APIError {
	e := &APIError{Status: res.StatusCode, Detail: strings.TrimSpace(string(raw))}
	var body struct {
		Detail json.RawMessage `json:"detail"`
	}
	if json.Unmarshal(raw, &body) == nil && len(body.Detail) > 0 {
		var text string
		if json.Unmarshal(body.Detail, &text) == nil {
			e.Detail = text
		} else {
			e.Detail = string(body.Detail)
		}
	}
	if s, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil && s > 0 {
		e.RetryAfter = time.Duration(s) * time.Second
	}
	return e
}

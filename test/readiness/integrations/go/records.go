package shop

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
)

// SandboxRecords reconciles against the sandbox's own record of the company's transfers
// (GET /_sandbox/transfers with the company's Basic credentials: it sees only its own). Against
// the real service this would be the provider's statement; in the sandbox it is the control plane.
type SandboxRecords struct {
	SandboxURL   string // PIX_SANDBOX_URL
	ClientID     string
	ClientSecret string
	HTTP         *http.Client
}

// Find looks among the company's newest 500 transfers for one with this amount, key and description.
func (s *SandboxRecords) Find(ctx context.Context, amount int64, pixKey, description string) (*Record, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, s.SandboxURL+"/_sandbox/transfers?limit=500", nil)
	if err != nil {
		return nil, err
	}
	req.SetBasicAuth(s.ClientID, s.ClientSecret)
	req.Header.Set("Accept", "application/json")
	res, err := s.HTTP.Do(req)
	if err != nil {
		return nil, err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("transfers: %d", res.StatusCode)
	}
	var page struct {
		Data []struct {
			TransactionID string  `json:"transaction_id"`
			Amount        int64   `json:"amount"`
			PixKey        string  `json:"pix_key"`
			Description   *string `json:"description"`
			Status        string  `json:"status"`
		} `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&page); err != nil {
		return nil, err
	}
	for _, t := range page.Data {
		if t.Amount == amount && t.PixKey == pixKey && t.Description != nil && *t.Description == description {
			return &Record{TransactionID: t.TransactionID, Status: t.Status, Amount: t.Amount, PixKey: t.PixKey, Description: description}, nil
		}
	}
	return nil, nil
}

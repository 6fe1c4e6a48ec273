// Subscriptions made before webhook URLs with `user:password@` were refused (0.1.0 took them):
// such a URL can never be sent (fetch refuses it) and showed its password in every list. The
// user and password are removed, from the subscription and from its `webhook.created` event, and
// the subscription is disabled, saying why (`url_without_userinfo`: src/store/db.ts).
export const sql = `
UPDATE webhooks SET
  disabled_at = coalesce(disabled_at, created_at),
  disabled_reason = coalesce(disabled_reason, 'its URL carried user:password@, which can never be sent; they were removed from it: subscribe again'),
  url = url_without_userinfo(url)
WHERE url_without_userinfo(url) <> url;
UPDATE events SET data = json_set(data, '$.url', url_without_userinfo(json_extract(data, '$.url')))
WHERE type = 'webhook.created' AND url_without_userinfo(json_extract(data, '$.url')) <> json_extract(data, '$.url');
`

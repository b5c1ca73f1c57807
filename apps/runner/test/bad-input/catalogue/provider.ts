import type { Kind } from '../harness';

/**
 * The provider area's kinds of bad input and fault (see ../catalogue.ts): the model selection
 * (--model, MULTIHOP_MODEL, OPENAI_*), the config file, and an OpenAI-compatible endpoint that
 * misbehaves. `before` was measured by running each case against the tree before issue 16.
 */
export const KINDS: readonly Kind[] = [
  // The config file (multihop.config.json / MULTIHOP_CONFIG).
  { id: 'provider/config-role-typo', before: 'silent-wrong', what: 'a config file whose roles name a role no workflow calls ("par2-escc" for "par2-esc")' },
  { id: 'provider/config-nested-type', before: 'unclear', what: 'a config file with a nested field of the wrong type (roles.par2-esc.timeoutMs: "abc")' },
  { id: 'provider/config-unknown-provider', before: 'unclear', what: 'a config file whose model object names a provider that does not exist ({"provider": "anthropic"})' },
  { id: 'provider/config-missing-model', before: 'clear', what: 'a config file whose openai model object names no model' },
  { id: 'provider/config-unknown-field', before: 'clear', what: 'a config file with a misspelt top-level field ("modle")' },
  { id: 'provider/config-invalid-json', before: 'clear', what: 'a config file that is not valid JSON' },
  { id: 'provider/config-unreadable', before: 'clear', what: 'MULTIHOP_CONFIG naming a file that does not exist' },
  // Model selection.
  { id: 'provider/missing-api-key', before: 'clear', what: 'an openai: model with OPENAI_API_KEY unset' },
  { id: 'provider/bad-model-string', before: 'clear', what: '--model openai: with no model name' },
  { id: 'provider/unknown-provider', before: 'clear', what: '--model naming a provider that does not exist (anthropic:claude)' },
  { id: 'provider/base-url-no-scheme', before: 'unclear', what: 'OPENAI_BASE_URL without its http:// (127.0.0.1:8000/v1); MULTIHOP_TIMEOUT_MS=2s, MULTIHOP_MAX_RETRIES=11 (variables added after the audit)' },
  // The endpoint.
  { id: 'provider/html-reply', before: 'unclear', what: 'an endpoint that answers 200 with an HTML page (a proxy error page)' },
  { id: 'provider/no-choices', before: 'unclear', what: 'an endpoint that answers 200 JSON with no `choices`' },
  { id: 'provider/broken-json-reply', before: 'unclear', what: 'an endpoint that answers 200 with truncated JSON' },
  { id: 'provider/hanging-server', before: 'unclear', what: 'an endpoint that accepts the request and never answers (every attempt times out)' },
  { id: 'provider/call-deadline', before: 'unclear', what: 'a call whose attempts and waits together would outlast MULTIHOP_CALL_DEADLINE_MS' },
  { id: 'provider/rate-limited-then-ok', before: 'clear', what: 'an endpoint that answers 429 with Retry-After once, then succeeds' },
  { id: 'provider/server-error-retried', before: 'clear', what: 'an endpoint that answers 500 to every attempt' },
  { id: 'provider/connection-refused', before: 'clear', what: 'OPENAI_BASE_URL pointing at a port where nothing listens' },
  { id: 'provider/unauthorized', before: 'clear', what: 'an endpoint that refuses the API key (401)' },
  { id: 'provider/eval-other-endpoint', before: 'silent-wrong', what: 'an eval re-run into its directory with OPENAI_BASE_URL at another endpoint serving a model of the same name: its results reused without a word' },
  { id: 'provider/eval-outage', before: 'unclear', what: 'an eval whose endpoint starts answering with an HTML page midway, then resumed' },
  { id: 'provider/judge-outage', before: 'silent-wrong', what: "an eval whose judge's endpoint is down, then re-run once it is back" },
];

import { InputError } from '@multihop/core';

/** LanceDB's object-store options: string keys (snake_case or camelCase) to string values. */
export type StorageOptions = Record<string, string>;

// Keys LanceDB's object store (the Rust `object_store` crate, plus Lance's own) reads. Provider keys
// beginning with aws_, google_ or azure_ are passed on as they are: there are many, and the
// provider checks them. Everything else must be one of these, so that a misspelt key is an error
// here rather than an option silently ignored (LanceDB ignores unknown keys).
const BOOLEAN = new Set([
  'allow_http', 'allow_invalid_certificates', 'http1_only', 'http2_only', 'http2_keep_alive_while_idle', 'randomize_addresses',
  'virtual_hosted_style_request', 'skip_signature', 'imdsv1_fallback', 'unsigned_payload', 's3_express', 'disable_tagging',
  'new_table_enable_v2_manifest_paths',
]);
const DURATION = new Set(['timeout', 'connect_timeout', 'pool_idle_timeout', 'http2_keep_alive_interval', 'http2_keep_alive_timeout', 'client_retry_timeout']);
const INTEGER = new Set(['download_retry_count', 'client_max_retries', 'pool_max_idle_per_host', 'http2_max_frame_size']);
const URL_KEYS = new Set(['endpoint', 'endpoint_url', 'aws_endpoint', 'aws_endpoint_url', 'proxy_url', 'metadata_endpoint', 'aws_metadata_endpoint']);
const OTHER = new Set([
  'region', 'default_region', 'bucket', 'bucket_name', 'access_key_id', 'secret_access_key', 'session_token', 'token', 'checksum_algorithm',
  'copy_if_not_exists', 'conditional_put', 'request_payer', 'default_content_type', 'proxy_ca_certificate', 'proxy_excludes', 'user_agent',
  'service_account', 'service_account_path', 'service_account_key', 'account_name', 'account_key', 'access_key', 'sas_key', 'sas_token',
  'client_id', 'client_secret', 'tenant_id', 'authority_id', 'use_emulator', 'use_fabric_endpoint', 'new_table_data_storage_version',
]);
const KNOWN = [...BOOLEAN, ...DURATION, ...INTEGER, ...URL_KEYS, ...OTHER].sort();

/** The same conversion LanceDB applies to camelCase keys (`allowHttp` → `allow_http`). */
function snake(key: string): string {
  if (key.includes('_') || key.toUpperCase() === key) return key;
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`).replace(/^_/, '');
}

const HUMANTIME = /^(\d+(\.\d+)?\s*(ns|nsec|us|usec|ms|msec|millis|s|sec|secs|second|seconds|m|min|mins|minute|minutes|h|hr|hrs|hour|hours|d|day|days)\s*)+$/i;

/**
 * Checks storage options before LanceDB sees them: LanceDB ignores keys it does not know and
 * reports a malformed value without its key ("failed to parse … as boolean"). Returns them as
 * given; throws an InputError whose `location.field` is `storageOptions.<key>`.
 */
export function checkStorageOptions(options: unknown): StorageOptions {
  if (typeof options !== 'object' || options === null || Array.isArray(options)) {
    throw new InputError('storageOptions must be an object of string keys to string values', { field: 'storageOptions' });
  }
  for (const [key, value] of Object.entries(options)) {
    const field = `storageOptions.${key}`;
    const fail = (why: string) => {
      throw new InputError(`${field} ${why}`, { field });
    };
    if (typeof value !== 'string') fail(`must be a string (LanceDB takes every option as one), got ${value === null ? 'null' : typeof value}${typeof value === 'number' || typeof value === 'boolean' ? `: write "${String(value)}"` : ''}`);
    const name = snake(key).toLowerCase();
    const provider = /^(aws|google|azure)_/.test(name);
    const base = name.replace(/^(aws|google|azure)_/, '');
    if (!provider && !KNOWN.includes(name)) {
      const near = KNOWN.filter((k) => k.includes(name) || name.includes(k) || k.replace(/_/g, '') === name.replace(/_/g, ''));
      fail(`is not an option of LanceDB's object store${near.length ? ` (did you mean ${near.join(', ')}?)` : ''}; general keys: ${KNOWN.join(', ')}; provider keys start with aws_, google_ or azure_`);
    }
    const v = (value as string).trim();
    if (BOOLEAN.has(name) || BOOLEAN.has(base)) {
      if (!/^(true|false)$/i.test(v)) fail(`must be "true" or "false", got "${value}"`);
    } else if (DURATION.has(name)) {
      if (!HUMANTIME.test(v)) fail(`must be a duration such as "30s", "500ms" or "2min", got "${value}"`);
    } else if (INTEGER.has(name)) {
      if (!/^\d+$/.test(v)) fail(`must be a whole number, got "${value}"`);
    } else if (URL_KEYS.has(name)) {
      if (!/^https?:\/\/[^\s/]+/i.test(v)) fail(`must be an http:// or https:// URL, got "${value}"`);
    }
  }
  return options as StorageOptions;
}

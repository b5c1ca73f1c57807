import { InputError } from '@multihop/core';
import { checkStorageOptions } from './storageOptions';

const fieldOf = (options: unknown) => {
  try {
    checkStorageOptions(options);
  } catch (error) {
    expect(error).toBeInstanceOf(InputError);
    return { field: (error as InputError).location.field, message: (error as Error).message };
  }
  throw new Error('accepted');
};

describe('checkStorageOptions', () => {
  it('passes S3-compatible options through unchanged, snake_case or camelCase', () => {
    const options = { endpoint: 'http://127.0.0.1:9000', allowHttp: 'true', aws_access_key_id: 'k', awsSecretAccessKey: 's', region: 'us-east-1', timeout: '30s', client_max_retries: '3' };
    expect(checkStorageOptions(options)).toBe(options);
  });

  it('names the field of an unknown key, a non-string value and a malformed value', () => {
    expect(fieldOf({ endpiont: 'http://x' })).toEqual({ field: 'storageOptions.endpiont', message: expect.stringMatching(/^storageOptions\.endpiont is not an option of LanceDB's object store/) });
    expect(fieldOf({ allowHttp: true }).message).toBe('storageOptions.allowHttp must be a string (LanceDB takes every option as one), got boolean: write "true"');
    expect(fieldOf({ allow_http: 'yes' })).toEqual({ field: 'storageOptions.allow_http', message: 'storageOptions.allow_http must be "true" or "false", got "yes"' });
    expect(fieldOf({ aws_virtual_hosted_style_request: 'maybe' }).field).toBe('storageOptions.aws_virtual_hosted_style_request');
    expect(fieldOf({ timeout: '30' }).message).toMatch(/^storageOptions\.timeout must be a duration/);
    expect(fieldOf({ endpoint: 'localhost:9000' }).message).toMatch(/^storageOptions\.endpoint must be an http:\/\/ or https:\/\/ URL/);
    expect(fieldOf({ client_max_retries: 'three' }).field).toBe('storageOptions.client_max_retries');
    expect(fieldOf(['x']).field).toBe('storageOptions');
  });

  it('suggests the key meant, and says how to write a number or a missing value', () => {
    expect(fieldOf({ allowhttp: 'true' })).toEqual({ field: 'storageOptions.allowhttp', message: expect.stringContaining('(did you mean allow_http?)') });
    expect(fieldOf({ clientMaxRetries: 3 }).message).toBe('storageOptions.clientMaxRetries must be a string (LanceDB takes every option as one), got number: write "3"');
    expect(fieldOf({ region: null }).message).toBe('storageOptions.region must be a string (LanceDB takes every option as one), got null');
    // Provider keys pass unchecked by name, but a provider-prefixed boolean is still checked.
    expect(checkStorageOptions({ aws_request_payer: 'true', google_service_account: '/k.json' })).toEqual({ aws_request_payer: 'true', google_service_account: '/k.json' });
    expect(fieldOf({ aws_allow_http: 'on' }).field).toBe('storageOptions.aws_allow_http');
  });
});

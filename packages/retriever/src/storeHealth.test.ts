import { damageReason, plainLanceMessage } from './storeHealth';

// Messages LanceDB 0.37.1 gave on this machine for a damaged store (see damaged.int.test.ts).
const MISSING =
  'Failed to get next batch from stream: lance error: Not found: tmp/x/db/c-open__passage.lance/data/1010.lance, /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-io-10.0.0/src/local.rs:133:40';
const TRUNCATED =
  'Failed to get next batch from stream: lance error: LanceError(IO): Generic LocalFileSystem error: failed to fill whole buffer, /rustc/2d8144b7880597b6e6d3dfd63a9a9efae3f533d3/library/core/src/ops/function.rs:250:5';
const NOT_A_DIRECTORY =
  'Invalid input, Failed to connect to namespace: IO { source: Generic { store: "LocalFileSystem", source: UnableToWalkDir { source: Error { depth: 0, inner: Io { path: Some("/tmp/x/__manifest/_versions"), err: Os { code: 20, kind: NotADirectory, message: "Not a directory" } } } } }, location: Location { file: "/usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-io-10.0.0/src/object_store.rs", line: 905, column: 92 }, backtrace: MaybeBacktrace';
const NO_VERSIONS =
  "Table 'u' exists but could not be loaded (it may be corrupt or incomplete): Dataset at path tmp/x/u.lance was not found: Not found: tmp/x/u.lance/_versions, /usr/local/cargo/registry/src/index.crates.io-1949cf8c6b5b557f/lance-table-10.0.0/src/io/commit.rs:646:26";

describe('damageReason', () => {
  it('says in words what is wrong with the files', () => {
    expect(damageReason(new Error(MISSING))).toBe('data file c-open__passage.lance/data/1010.lance is missing');
    expect(damageReason(new Error(TRUNCATED))).toBe('a data file is truncated or corrupt');
    expect(damageReason(new Error(NOT_A_DIRECTORY))).toBe('it is a regular file, not a directory');
    expect(damageReason(new Error(NO_VERSIONS))).toBe('the version files of table u are missing');
  });

  it('leaves errors that are not about damaged files alone', () => {
    expect(damageReason(new Error("Table 'x__passage' already exists"))).toBeUndefined();
    expect(damageReason(new Error('Incompatible transaction: This CreateIndex transaction is incompatible with concurrent transaction Restore at version 4.'))).toBeUndefined();
  });
});

describe('plainLanceMessage', () => {
  it('drops Rust source paths, debug locations and causes', () => {
    expect(plainLanceMessage(MISSING)).toBe('Failed to get next batch from stream: lance error: Not found: tmp/x/db/c-open__passage.lance/data/1010.lance');
    expect(plainLanceMessage(NOT_A_DIRECTORY)).not.toMatch(/cargo|Location/);
    expect(plainLanceMessage('lance error: Incompatible transaction, /usr/local/cargo/registry/src/x/conflict_resolver.rs:754:30  Caused by: more, /usr/local/cargo/y.rs:1:2')).toBe(
      'lance error: Incompatible transaction',
    );
  });
});

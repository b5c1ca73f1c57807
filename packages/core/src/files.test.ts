import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeDirectory, parseJsonText, writeFileWhole } from './files';

describe('parseJsonText', () => {
  it('names the line and column of a syntax error, not a character offset', () => {
    // A trailing comma on line 3, the kind of slip a hand-edited multihop.config.json has.
    const text = '{\n  "model": "offline",\n  "concurrency": 4,\n}\n';
    expect(() => parseJsonText(text)).toThrow(/^Expected double-quoted property name.* line 4,? column 1\)?$/);
    expect(() => parseJsonText('{\n  "a": 1\n  "b": 2\n}')).toThrow(/line 3,? column 3\)?$/);
  });

  it('parses valid JSON, and leaves messages without a position as they are', () => {
    expect(parseJsonText('{"a": [1, 2]}')).toEqual({ a: [1, 2] });
    expect(() => parseJsonText('')).toThrow('Unexpected end of JSON input');
  });
});

describe('writeFileWhole', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'multihop-files-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces a file with the new text and leaves nothing else beside it', () => {
    const file = join(dir, 'queue.json');
    writeFileSync(file, '{"evalId":"old"}\n');
    writeFileWhole(file, '{"evalId":"new"}\n');
    expect(readFileSync(file, 'utf8')).toBe('{"evalId":"new"}\n');
    expect(readdirSync(dir)).toEqual(['queue.json']);
  });

  it('when the rename fails, removes its temporary file, keeps what was there and names the file asked for', () => {
    const target = join(dir, 'summary.json');
    mkdirSync(target); // a directory where the file should go: the rename is refused
    writeFileSync(join(target, 'kept'), 'x');
    let thrown: NodeJS.ErrnoException | undefined;
    try {
      writeFileWhole(target, '{}');
    } catch (error) {
      thrown = error as NodeJS.ErrnoException;
    }
    expect(typeof thrown?.code).toBe('string');
    expect(thrown?.path).toBe(target);
    expect(readdirSync(dir)).toEqual(['summary.json']);
    expect(readdirSync(target)).toEqual(['kept']);
  });

  it('when the write fails, names the file asked for, not its temporary one', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const target = join(file, 'config.json'); // a path through a file (ENOTDIR)
    expect(() => writeFileWhole(target, '{}')).toThrow(expect.objectContaining({ code: 'ENOTDIR', path: target }));
  });
});

describe('makeDirectory', () => {
  let root: string;
  beforeEach(() => (root = mkdtempSync(join(tmpdir(), 'multihop-mkdir-'))));
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it('creates the missing levels, and leaves an existing directory and its files as they are', () => {
    const deep = join(root, 'a', 'b', 'c');
    makeDirectory(deep);
    expect(statSync(deep).isDirectory()).toBe(true);
    writeFileSync(join(deep, 'kept.txt'), 'x');
    makeDirectory(deep);
    makeDirectory(join(root, 'a'));
    expect(readFileSync(join(deep, 'kept.txt'), 'utf8')).toBe('x');
  });

  it('fails with ENOTDIR at a level that is a file, creating nothing under it, and with EEXIST when the path is a file', () => {
    writeFileSync(join(root, 'file'), 'x');
    expect(() => makeDirectory(join(root, 'file', 'sub', 'dir'))).toThrow(expect.objectContaining({ code: 'ENOTDIR' }));
    expect(() => makeDirectory(join(root, 'file'))).toThrow(expect.objectContaining({ code: 'EEXIST', syscall: 'mkdir', path: join(root, 'file') }));
    expect(readFileSync(join(root, 'file'), 'utf8')).toBe('x');
  });

  // Node 20's mkdirSync(path, { recursive: true }) spins forever here (mkdir answers ENOENT under /proc).
  (existsSync('/proc/self') ? it : it.skip)('fails with ENOENT under /proc instead of looping', () => {
    expect(() => makeDirectory('/proc/multihop-no-such-dir/x')).toThrow(expect.objectContaining({ code: 'ENOENT', path: '/proc/multihop-no-such-dir' }));
  });
});

import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeSystemError, isSystemError, writeWhole } from './io';

describe('writeWhole', () => {
  let dir: string;
  beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'multihop-io-'))));
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('replaces a file with the new text and leaves nothing else beside it', () => {
    const file = join(dir, 'queue.json');
    writeFileSync(file, '{"evalId":"old"}\n');
    writeWhole(file, '{"evalId":"new"}\n');
    expect(readFileSync(file, 'utf8')).toBe('{"evalId":"new"}\n');
    expect(readdirSync(dir)).toEqual(['queue.json']);
  });

  it('when the rename fails, removes its temporary file, keeps what was there and names the file asked for', () => {
    const target = join(dir, 'summary.json');
    mkdirSync(target); // a directory where the file should go: the rename is refused
    writeFileSync(join(target, 'kept'), 'x');
    let thrown: unknown;
    try {
      writeWhole(target, '{}');
    } catch (error) {
      thrown = error;
    }
    expect(isSystemError(thrown)).toBe(true);
    expect(describeSystemError(thrown as never)).toContain(target);
    expect(describeSystemError(thrown as never)).not.toContain('.tmp');
    expect(readdirSync(dir)).toEqual(['summary.json']);
    expect(readdirSync(target)).toEqual(['kept']);
  });

  it('when the write fails, names the file asked for, not its temporary one', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'x');
    const target = join(file, 'config.json'); // a path through a file (ENOTDIR)
    expect(() => writeWhole(target, '{}')).toThrow(expect.objectContaining({ code: 'ENOTDIR', path: target }));
  });
});

import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cli } from '../../test/cli';

// A stand-in build of the page, so these tests never run vite: what is tested is the CLI's answers.
const dir = mkdtempSync(join(tmpdir(), 'multihop-studio-cli-'));
const assets = join(dir, 'assets');
mkdirSync(assets);
writeFileSync(join(assets, 'index.html'), '<!doctype html><title>multihop studio</title><script type="module" src="./studio.js"></script>');
writeFileSync(join(assets, 'studio.js'), '');
process.env['MULTIHOP_STUDIO_DIR'] = assets;

describe('multihop studio and multihop report: what a new user meets, through the CLI', () => {
  it('studio names what is wrong with --port and --eval, and a port in use', async () => {
    expect(await cli('studio', '--port', 'abc')).toMatchObject({ code: 2, err: expect.stringContaining('--port must be an integer, got "abc"') });
    expect(await cli('studio', '--port', '70000')).toMatchObject({ code: 2, err: expect.stringContaining('--port must be 0–65535, got 70000') });
    // TEST-NET-1 (RFC 5737) is never an address of this machine; a name under .invalid never resolves (RFC 2606).
    expect(await cli('studio', '--port', '0', '--host', '192.0.2.1')).toMatchObject({ code: 2, err: expect.stringContaining('--host 192.0.2.1: not an address of this machine') });
    expect(await cli('studio', '--port', '0', '--host', 'no-such-host.invalid')).toMatchObject({ code: 2, err: expect.stringContaining('--host no-such-host.invalid: no such host name or address') });
    expect(await cli('studio', '--port', '0', '--eval', join(dir, 'no-such-dir'))).toMatchObject({ code: 2, err: expect.stringContaining(`--eval ${join(dir, 'no-such-dir')}: no such directory`) });
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', () => resolve()));
    try {
      const port = String((busy.address() as { port: number }).port);
      expect(await cli('studio', '--port', port)).toMatchObject({ code: 2, err: expect.stringContaining(`--port ${port}: the port is in use; pick another or --port 0 for a free one`) });
    } finally {
      busy.close();
    }
  });

  it('report needs an eval directory, and says when a directory is not one', async () => {
    expect(await cli('report')).toMatchObject({ code: 2, err: expect.stringContaining('usage: multihop report <eval dir> [--out FILE.html]') });
    expect(await cli('report', join(dir, 'missing'))).toMatchObject({ code: 2, err: expect.stringContaining(`report ${join(dir, 'missing')}: no such directory`) });
    const notEval = join(dir, 'not-an-eval');
    mkdirSync(notEval);
    expect(await cli('report', notEval)).toMatchObject({ code: 2, err: expect.stringContaining(`report: dir ${notEval} has no summary.json: not an eval directory, or its eval has not finished (multihop eval ... --out ${notEval} finishes it)`) });
    // An eval directory with nothing run in it still has a summary; --out that is a directory is named.
    writeFileSync(join(notEval, 'summary.json'), JSON.stringify({ dataset: 'hotpotqa-train', setting: 'closed', n: 0, workflows: {} }));
    writeFileSync(join(notEval, 'results.jsonl'), '');
    expect(await cli('report', notEval, '--out', dir)).toMatchObject({ code: 2, err: expect.stringContaining(`report: cannot write ${dir} (EISDIR)`) });
  });

  it('lists both commands in its usage, and each one\'s options in its own help', async () => {
    const { out } = await cli('--help');
    expect(out).toMatch(/^ {2}studio {2,}serve the local web app/m);
    expect(out).toMatch(/^ {2}report <eval dir> {2,}write an eval directory's view as one HTML file/m);
    const studio = await cli('studio', '--help');
    expect(studio.out).toContain('Usage: multihop studio [options]');
    for (const option of ['--port N', '--open', '--eval DIR']) expect(studio.out).toContain(option);
    expect((await cli('help', 'report')).out).toMatch(/Usage: multihop report <eval dir> \[options\]\n[\s\S]*--out FILE\.html\s+the HTML file \(default: <eval dir>\/report\.html\)/);
  });
});

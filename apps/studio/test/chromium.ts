import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { debianBinary } from '@multihop/testing';
import { chromium, type Browser } from 'playwright-core';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/**
 * A Chromium for the browser tests: `CHROMIUM_PATH`, else the system's, else Debian's `chromium`
 * package installed with apt-get (the tests' set-up does it, so CI on a fresh machine passes;
 * `playwright install` cannot work here, with no network beyond the package registries).
 */
export function ensureChromium(log: (line: string) => void = (line) => process.stderr.write(`${line}\n`)): string {
  const given = process.env['CHROMIUM_PATH'];
  if (given) {
    if (!existsSync(given)) throw new Error(`CHROMIUM_PATH=${given} does not exist`);
    return given;
  }
  let binary: { path: string | undefined; installed: boolean };
  try {
    binary = debianBinary('chromium', () => CANDIDATES.find((path) => existsSync(path)), (line) => log(`browser tests: ${line}`));
  } catch (e) {
    throw new Error(`browser tests: ${(e as Error).message}\nOr set CHROMIUM_PATH.`);
  }
  if (!binary.installed) return binary.path!;
  if (!binary.path) throw new Error('browser tests: apt-get installed chromium but no binary was found at /usr/bin/chromium');
  log(`browser tests: ${execFileSync(binary.path, ['--version'], { encoding: 'utf8' }).trim()}`);
  return binary.path;
}

/**
 * Headless Chromium with the flags this machine needs: no sandbox (tests run as root), and no
 * background networking (its connections are refused here, many at a time).
 */
export function launchChromium(executablePath = ensureChromium()): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--disable-dev-shm-usage'],
  });
}

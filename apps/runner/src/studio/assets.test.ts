import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newestSource } from './assets';

describe("the studio page's rebuild check", () => {
  it('counts index.html and the vite config as sources, not only src/', () => {
    const app = mkdtempSync(join(tmpdir(), 'multihop-studio-app-'));
    try {
      mkdirSync(join(app, 'src'));
      const at = (file: string, seconds: number) => {
        writeFileSync(join(app, file), '');
        utimesSync(join(app, file), seconds, seconds);
      };
      at('src/main.tsx', 1_000);
      at('vite.config.ts', 2_000);
      at('index.html', 3_000);
      expect(newestSource(app)).toBe(3_000_000);
      at('src/main.tsx', 4_000);
      expect(newestSource(app)).toBe(4_000_000);
    } finally {
      rmSync(app, { recursive: true, force: true });
    }
  });
});

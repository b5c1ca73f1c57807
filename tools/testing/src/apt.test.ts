import { existsSync } from 'node:fs';
import { debianBinary, debianPackageStatus, settledPackage } from './apt';

// Real dpkg on the Debian machines CI runs on; elsewhere there is no dpkg to ask.
const debian = existsSync('/var/lib/dpkg/status');

(debian ? describe : describe.skip)('what dpkg says of a package', () => {
  it('reads an installed package as installed and an unknown one as not installed, both settled (nothing midway)', () => {
    expect(debianPackageStatus('dpkg')).toBe('installed');
    expect(debianPackageStatus('no-such-package-multihop')).toBe('not-installed');
    expect(settledPackage('dpkg')).toBe(true);
    expect(settledPackage('no-such-package-multihop')).toBe(true);
  });

  it('hands back a binary of a settled package as found, without running apt-get', () => {
    const lines: string[] = [];
    expect(debianBinary('dpkg', () => '/usr/bin/dpkg', (line) => lines.push(line))).toEqual({ path: '/usr/bin/dpkg', installed: false });
    expect(lines).toEqual([]);
  });
});

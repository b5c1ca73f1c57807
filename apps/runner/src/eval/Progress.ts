/**
 * A progress bar on stderr: redrawn in place on a terminal, a line per tenth otherwise (CI logs).
 */
export class Progress {
  private done = 0;
  private lastDecile = -1;
  private readonly tty = Boolean(process.stderr.isTTY);

  constructor(
    private readonly total: number,
    private readonly label: string,
  ) {}

  tick(note: string): void {
    this.done++;
    const pct = this.total === 0 ? 100 : Math.floor((100 * this.done) / this.total);
    if (this.tty) {
      const width = 30;
      const filled = Math.round((width * this.done) / Math.max(1, this.total));
      process.stderr.write(`\r${this.label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.done}/${this.total} ${note.slice(0, 40).padEnd(40)}`);
      if (this.done === this.total) process.stderr.write('\n');
    } else if (Math.floor(pct / 10) > this.lastDecile) {
      this.lastDecile = Math.floor(pct / 10);
      process.stderr.write(`${this.label} ${this.done}/${this.total} (${pct}%)\n`);
    }
  }
}

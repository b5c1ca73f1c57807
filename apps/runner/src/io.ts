/** Where a command writes; tests pass their own to read what a command printed. */
export interface Io {
  out(text: string): void;
  err(text: string): void;
}

// A reader that closes early (`multihop workflows | head`) is not an error of the command.
process.stdout.on('error', (error: NodeJS.ErrnoException) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

export const processIo: Io = {
  out: (text) => process.stdout.write(text.endsWith('\n') ? text : `${text}\n`),
  err: (text) => process.stderr.write(text.endsWith('\n') ? text : `${text}\n`),
};

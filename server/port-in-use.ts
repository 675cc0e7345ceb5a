// A listener's EADDRINUSE said in words: which port, on which address, and
// the flag or variable that changes it (the raw error names neither).

/** `error` itself, unless it is EADDRINUSE: then an error naming the port and how to pick another. */
export function portInUseError(error: unknown, port: number, host: string, change: string): unknown {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== 'EADDRINUSE') return error;
  return new Error(`Port ${port} on ${host} is already in use: stop what uses it, or ${change}.`, { cause: error });
}

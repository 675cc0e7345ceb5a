// The free space MIN_FREE_DISK_BYTES is held against: what the proxy, an
// unprivileged process, may still write on DATA_DIR's disk. The blocks a
// filesystem keeps for root (often 5 % on ext4) are free but not the proxy's.
import type { StatsFs } from 'node:fs';
import { statfs } from 'node:fs/promises';

/** Free bytes an unprivileged process may still write on the disk holding `dir`. */
export type FreeSpaceReader = (dir: string) => Promise<number>;

/** The bytes of `stats` an unprivileged process may write: its available blocks (`bavail`), not its free ones (`bfree`, root's reserve included). */
export function writableBytes(stats: StatsFs): number {
  return stats.bavail * stats.bsize;
}

export const freeSpaceOf: FreeSpaceReader = async (dir) => writableBytes(await statfs(dir));

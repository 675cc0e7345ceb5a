// What a follower of the catalogue-scale bench (catalogue-follower.ts) tells
// the bench over IPC: its whole reload once loaded, then each version it holds
// and when (wall clock, ms).
import { z } from 'zod';

export const FollowerMessage = z.union([
  z.object({ loaded: z.number() }),
  z.object({ version: z.number().int(), at: z.number() }),
]);
export type FollowerMessage = z.infer<typeof FollowerMessage>;

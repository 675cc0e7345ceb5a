import { z } from 'zod';

/**
 * Value of the X-Pagination response header. The production header's
 * encoding is undocumented; we send it as JSON with these four keys.
 */
export const PaginationHeader = z.object({
  'total-count': z.int().nonnegative(),
  'current-page': z.int().positive(),
  'next-page': z.int().positive().nullable(),
  'last-page': z.int().positive(),
});
export type PaginationHeader = z.infer<typeof PaginationHeader>;

export function paginationFor(total: number, page: number, perPage: number): PaginationHeader {
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  return {
    'total-count': total,
    'current-page': page,
    'next-page': page < lastPage ? page + 1 : null,
    'last-page': lastPage,
  };
}

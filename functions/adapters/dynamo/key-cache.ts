import type { AccountsRepository, ApiKeyRecord } from '../../domain/accounts/accounts';
import type { Clock } from '../../domain/shared/clock';

const MAX_ENTRIES = 1000;

/**
 * Remembers resolved keys for `ttlMs` so that a warm function authenticates without a read; a revoked
 * key therefore keeps working for at most `ttlMs` in a warm function. Unknown keys are not cached, so a
 * new key works at once.
 */
export const cachedKeyLookup = (
  repository: Pick<AccountsRepository, 'findKeyByHash'>,
  ttlMs: number,
  clock: Clock,
): Pick<AccountsRepository, 'findKeyByHash'> => {
  const entries = new Map<string, { key: ApiKeyRecord; until: number }>();
  return {
    async findKeyByHash(keyHash) {
      const hit = entries.get(keyHash);
      if (hit && hit.until > clock()) return hit.key;
      const key = await repository.findKeyByHash(keyHash);
      if (key && ttlMs > 0) {
        const oldest = entries.keys().next();
        if (entries.size >= MAX_ENTRIES && !oldest.done) entries.delete(oldest.value);
        entries.set(keyHash, { key, until: clock() + ttlMs });
      }
      return key;
    },
  };
};

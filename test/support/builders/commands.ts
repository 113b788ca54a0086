/**
 * The image use cases' input, for their unit tests: the caller of a test account, and a valid command
 * of each operation (`imageCommand`) for a test to change one aspect of.
 */
import type { Caller } from '../../../functions/domain/accounts/accounts';
import type { ImageCommand } from '../../../functions/domain/images/command';

/** The account the unit tests of the use cases call as, and its caller (one API key). */
export const UNIT_ACCOUNT = 'acc_unit';
export const unitCaller: Caller = { accountId: UNIT_ACCOUNT, keyId: 'key_unit' };

/** What every operation's command shares: one output, answered as bytes, synchronously, naming nobody. */
const common = { profileIds: [], numOutputImages: 1, responseMode: 'bytes', async: false } as const;

/** A valid synchronous command: generate at 2K on base-c-2 from its prompt, or enhance of one photo. */
export const imageCommand = (operation: 'generate' | 'enhance', overrides: Partial<ImageCommand> = {}): ImageCommand =>
  operation === 'generate'
    ? {
        ...common,
        operation,
        prompt: '',
        inputs: [],
        output: { baseModel: 'base-c-2', resolution: '2K' },
        ...overrides,
      }
    : {
        ...common,
        operation,
        prompt: '',
        inputs: [{ label: 'image', value: 'the photo' }],
        output: 'pinned',
        ...overrides,
      };

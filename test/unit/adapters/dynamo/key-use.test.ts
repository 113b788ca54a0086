import { dynamoKeyUses, KEY_USE_PRECISION_MS } from '../../../../functions/adapters/dynamo/key-use';
import type { Table } from '../../../../functions/adapters/dynamo/table';

/** A table whose client records each command and answers as told. */
const tableThat = (answer: (name: string) => Promise<unknown>) => {
  const sent: string[] = [];
  const table = {
    name: 't',
    doc: {
      send: (command: { constructor: { name: string } }) => {
        sent.push(command.constructor.name);
        return answer(command.constructor.name);
      },
    },
  } as unknown as Table;
  return { table, sent };
};

describe("a key's last use", () => {
  it('is written at most once a minute per key by one function', async () => {
    const { table, sent } = tableThat(async () => ({}));
    const uses = dynamoKeyUses(table);
    await uses.noteUse('acc_1', 'key_1', 0);
    await uses.noteUse('acc_1', 'key_1', KEY_USE_PRECISION_MS - 1);
    await uses.noteUse('acc_1', 'key_2', 10);
    await uses.noteUse('acc_1', 'key_1', KEY_USE_PRECISION_MS);
    expect(sent).toEqual(['UpdateCommand', 'UpdateCommand', 'UpdateCommand']);
  });

  it('never fails the request: a lost conditional write or a failed one is swallowed, and a failed one is tried again', async () => {
    const failures = [
      Object.assign(new Error('newer'), { name: 'ConditionalCheckFailedException' }),
      new Error('throttled'),
    ];
    const { table, sent } = tableThat(async () => {
      const failure = failures.shift();
      if (failure) throw failure;
      return {};
    });
    const uses = dynamoKeyUses(table);
    await expect(uses.noteUse('acc_1', 'key_1', 0)).resolves.toBeUndefined();
    await expect(uses.noteUse('acc_1', 'key_2', 0)).resolves.toBeUndefined();
    await uses.noteUse('acc_1', 'key_1', 1);
    await uses.noteUse('acc_1', 'key_2', 1);
    // key_1's write was answered (someone wrote a newer time): not again this minute; key_2's failed: again.
    expect(sent).toEqual(['UpdateCommand', 'UpdateCommand', 'UpdateCommand']);
  });
});

/**
 * A process that writes to a shared SQLite file (database.test.ts): `count` transactions that each
 * read, then write, as request handlers do. Exits 1 with the error when one fails.
 */
import { randomUUID } from 'node:crypto';
import { openDatabase } from '../platform/db/database.js';
import { newUserRow } from './user-row.js';

const [file, count] = process.argv.slice(2);
const handle = await openDatabase({ kind: 'sqlite', file: file! });
try {
  for (let i = 0; i < Number(count); i++) {
    await handle.db.transaction().execute(async (trx) => {
      const { n } = await trx
        .selectFrom('users')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow();
      await trx
        .insertInto('users')
        .values(newUserRow(`${randomUUID()}@example.com`, `writer ${process.pid} #${n}`))
        .execute();
    });
  }
} finally {
  await handle.destroy();
}

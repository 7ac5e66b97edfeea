import { describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/test-database.js';
import { newUserRow } from '../../test/user-row.js';
import { findCustomerId, saveCustomerId } from './payments.repository.js';

describe('billing customers', () => {
  // Two first payments of a user at once (a double click, two tabs) both create the customer: the
  // provider answers both with the same customer (one idempotency key), and both store it. On
  // PostgreSQL the two inserts meet on the customer id's unique index as well as on the user's,
  // and only the user's was named as the conflict to ignore: one request ended in a 500.
  it('stores a customer once when requests store it at the same time, and answers both', async () => {
    const { db } = await openTestDatabase();
    for (let round = 0; round < 40; round++) {
      const user = newUserRow(`ada+${round}@example.com`);
      await db.insertInto('users').values(user).execute();
      const customer = `cus_${round}`;
      const saved = await Promise.all(
        Array.from({ length: 4 }, () => saveCustomerId(db, user.id, 'stripe', customer)),
      );
      expect(saved).toEqual([customer, customer, customer, customer]);
    }
    const rows = await db.selectFrom('billing_customers').select('customer_id').execute();
    expect(rows).toHaveLength(40);
  });

  it('keeps the first customer a user was given, and refuses one that is another user’s', async () => {
    const { db } = await openTestDatabase();
    const [ada, bob] = [newUserRow('ada@example.com'), newUserRow('bob@example.com')];
    await db.insertInto('users').values([ada, bob]).execute();

    expect(await saveCustomerId(db, ada.id, 'stripe', 'cus_ada')).toBe('cus_ada');
    // A later answer for the same user (a lost answer, the call repeated) keeps the first.
    expect(await saveCustomerId(db, ada.id, 'stripe', 'cus_other')).toBe('cus_ada');
    // Test mode keeps its own customer.
    expect(await saveCustomerId(db, ada.id, 'test', 'tcus_ada')).toBe('tcus_ada');

    await expect(saveCustomerId(db, bob.id, 'stripe', 'cus_ada')).rejects.toThrow(
      'customer cus_ada belongs to another user',
    );
    expect(await findCustomerId(db, bob.id, 'stripe')).toBeUndefined();
  });
});

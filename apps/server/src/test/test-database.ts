import { onTestFinished } from 'vitest';
import { openDatabase, type DatabaseHandle } from '../platform/db/database.js';
import { createTestConfig, dropTestStorage } from './test-app.js';

/**
 * A migrated database of the running test's own (`openDatabase` migrates), for a test that reads
 * and writes rows directly: SQLite by default, a fresh PostgreSQL schema in the service matrix.
 * Closed and dropped when the test ends.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  const config = createTestConfig();
  const handle = await openDatabase(config.database);
  onTestFinished(async () => {
    await handle.destroy();
    await dropTestStorage(config);
  });
  return handle;
}

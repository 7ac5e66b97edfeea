/** Where the e2e server listens (E2E_PORT to run a second suite beside another). */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);
export const BASE_URL = `http://localhost:${E2E_PORT}`;

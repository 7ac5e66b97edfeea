import { isIP } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WEBHOOK_RETRY_DELAYS_MS } from '@mirror/contract';
import { z } from 'zod';

/**
 * The one place that reads `process.env`. Everything else receives a `Config`.
 * Invalid settings fail start-up with every bad variable listed, not just the first.
 */

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const booleanString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

/** A comma-separated list; blanks dropped. */
function commaList(item: z.ZodType<string, string>) {
  return z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter((part) => part !== ''),
    )
    .pipe(z.array(item));
}

const hostName = z
  .string()
  .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i, 'must be a host name such as sites.example.com');
const ipv4 = z
  .string()
  .refine((v) => isIP(v) === 4, 'must list IPv4 addresses such as 203.0.113.7');
const ipv6 = z
  .string()
  .refine((v) => isIP(v) === 6, 'must list IPv6 addresses such as 2001:db8::7');
/** `1.1.1.1`, `127.0.0.1:5353`, `::1` or `[::1]:5353`, as node's Resolver#setServers takes them. */
const dnsServer = z.string().refine((v) => {
  const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(v);
  if (bracketed) return isIP(bracketed[1]!) === 6;
  const withPort = /^([\d.]+):(\d{1,5})$/.exec(v);
  return isIP(withPort ? withPort[1]! : v) !== 0;
}, 'must list DNS servers as 1.1.1.1, 127.0.0.1:5353 or [::1]:5353');

const EnvSchema = z
  .object({
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    HOST: z.string().min(1).default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(8080),
    APP_URL: z.url({ protocol: /^https?$/ }).optional(),
    SITES_DOMAIN: z
      .string()
      .regex(/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i, 'must be a host name such as sites.example.com')
      .default('localhost'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
      .optional(),
    DATABASE_SCHEMA: z
      .string()
      .regex(/^[a-z_][a-z0-9_]*$/, 'must be a lower-case SQL identifier')
      .optional(),
    DATABASE_POOL_MAX: z.coerce.number().int().min(1).max(200).default(10),
    LOG_LEVEL: z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
      .default('info'),
    TRUST_PROXY: booleanString.default(false),
    WEB_DIST_DIR: z.string().min(1).optional(),
    SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).default(10_000),
    SESSION_TTL_DAYS: z.coerce.number().int().min(1).max(365).default(30),
    PASSWORD_RESET_TTL_MINUTES: z.coerce.number().int().min(5).max(1440).default(60),
    SMTP_URL: z
      .string()
      .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
      .optional(),
    MAIL_FROM: z.string().min(3).default('Mirror <no-reply@localhost>'),
    RATE_LIMIT_FACTOR: z.coerce.number().min(0.1).max(1000).default(1),
    MIRROR_ALLOW_PRIVATE_NETWORKS: booleanString.default(false),
    MIRROR_RENDER: z.enum(['auto', 'always', 'never']).default('auto'),
    CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
    MIRROR_RUN_MEMORY_MB: z.coerce.number().int().min(256).max(65_536).default(1536),
    /** The user sandboxed runs switch to when the server runs as root: a user name or uid:gid. */
    MIRROR_SANDBOX_USER: z
      .string()
      .regex(
        /^([a-z_][a-z0-9_.-]{0,31}|\d+:\d+)$/i,
        'must be a user name (nobody) or uid:gid such as 65534:65534',
      )
      .default('nobody'),
    MIRROR_SANDBOX_BUILT: booleanString.default(false),
    VERSION_THUMBNAILS: booleanString.default(true),
    FIDELITY_CHECKS: booleanString.default(true),
    FIDELITY_MAX_PAGES: z.coerce.number().int().min(1).max(100).optional(),
    VISUAL_DIFFS: booleanString.default(true),
    REFERENCE_SCREENSHOTS: booleanString.default(true),
    JOB_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
    JOB_LEASE_MS: z.coerce.number().int().min(1000).max(600_000).default(15_000),
    /** Pauses before each retry of a watch's webhook delivery, in ms, comma-separated. */
    WEBHOOK_RETRY_DELAYS_MS: z
      .string()
      .regex(/^\d+(,\d+){0,9}$/, 'must be up to 10 numbers of milliseconds, comma-separated')
      .optional(),
    S3_BUCKET: z.string().min(3).max(63).optional(),
    S3_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().min(1).optional(),
    S3_SECRET_ACCESS_KEY: z.string().min(1).optional(),
    S3_FORCE_PATH_STYLE: booleanString.default(false),
    S3_PREFIX: z
      .string()
      .regex(/^([\w.-]+\/)*$/, 'must be empty or end with / (e.g. blobs/)')
      .default(''),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// or rediss:// URL')
      .optional(),
    /** Key prefix of the job queue in Redis: processes sharing one prefix share one queue. */
    REDIS_PREFIX: z
      .string()
      .regex(/^[\w.-]{1,64}$/, 'must be letters, digits, ".", "_" or "-"')
      .default('mirror'),
    SEARCH_API_KEY: z.string().min(1).optional(),
    SEARCH_API_URL: z
      .url({ protocol: /^https?$/ })
      .default('https://api.search.brave.com/res/v1/web/search'),
    AI_BASE_URL: z.url({ protocol: /^https?$/ }).optional(),
    AI_API_KEY: z.string().min(1).optional(),
    AI_MODEL: z.string().min(1).max(200).optional(),
    AI_MODEL_PREMIUM: z.string().min(1).max(200).optional(),
    AI_TIMEOUT_MS: z.coerce.number().int().min(1000).max(600_000).default(60_000),
    AI_REWRITE_PRICE_CENTS: z.coerce.number().int().min(0).max(1_000_000).default(200),
    STRIPE_SECRET_KEY: z
      .string()
      .regex(/^(sk|rk)_(test|live)_\w+$/, 'must be a Stripe secret key (sk_test_… or sk_live_…)')
      .optional(),
    STRIPE_PUBLISHABLE_KEY: z
      .string()
      .regex(/^pk_(test|live)_\w+$/, 'must be a Stripe publishable key (pk_…)')
      .optional(),
    STRIPE_WEBHOOK_SECRET: z
      .string()
      .regex(/^whsec_\w+$/, 'must be a Stripe webhook signing secret (whsec_…)')
      .optional(),
    STRIPE_PRICE_PRO: z
      .string()
      .regex(/^price_\w+$/, 'must be a Stripe price id')
      .optional(),
    STRIPE_PRICE_AGENCY: z
      .string()
      .regex(/^price_\w+$/, 'must be a Stripe price id')
      .optional(),
    /**
     * Which payment provider answers: `stripe` (needs every STRIPE_* setting), `test` (the local
     * test mode: free test cards) or `off` (every payment answers 503). Default: `stripe` when its
     * keys are set, else `test`, except in production, where the test mode must be asked for by name.
     */
    PAYMENTS_MODE: z.enum(['stripe', 'test', 'off']).optional(),
    /** TEST-ONLY: where the Stripe SDK sends requests (a local server speaking Stripe's API). */
    STRIPE_API_URL: z.url({ protocol: /^https?$/ }).optional(),
    /**
     * When set, `/metrics` answers only `Authorization: Bearer <token>` and `/api/internal/*` only
     * that header or `?token=<token>` (Caddy's on-demand TLS ask). Required in production.
     */
    METRICS_TOKEN: z.string().min(16, 'must be at least 16 characters').optional(),
    /** More host names answered as the app (not as tenant sites), e.g. an internal service name. */
    APP_HOSTS: commaList(hostName).default([]),
    /** Where custom subdomains point their CNAME; defaults to SITES_DOMAIN. */
    SITES_CNAME_TARGET: hostName.optional(),
    /** Addresses apex custom domains point their A / AAAA records at. */
    SITES_IPV4: commaList(ipv4).default([]),
    SITES_IPV6: commaList(ipv6).default([]),
    /** DNS servers that domain checks ask; the system's resolvers when unset. */
    DNS_SERVERS: commaList(dnsServer).default([]),
    DNS_TIMEOUT_MS: z.coerce.number().int().min(100).max(30_000).default(1_500),
    /** CAA issuer domains of the certificate authority the TLS edge uses. */
    CAA_ISSUERS: commaList(hostName).default(['letsencrypt.org']),
  })
  .transform((env) => ({ ...env, APP_URL: env.APP_URL ?? `http://localhost:${env.PORT}` }))
  .superRefine((env, ctx) => {
    const stripe = [
      'STRIPE_SECRET_KEY',
      'STRIPE_PUBLISHABLE_KEY',
      'STRIPE_WEBHOOK_SECRET',
      'STRIPE_PRICE_PRO',
      'STRIPE_PRICE_AGENCY',
    ] as const;
    const missing = stripe.filter((name) => !env[name]);
    if ((env.STRIPE_SECRET_KEY || env.PAYMENTS_MODE === 'stripe') && missing.length > 0) {
      for (const name of missing) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message:
            env.PAYMENTS_MODE === 'stripe'
              ? 'is needed when PAYMENTS_MODE is stripe'
              : 'is needed when STRIPE_SECRET_KEY is set',
        });
      }
    }
    if (env.NODE_ENV === 'production' && !env.METRICS_TOKEN) {
      ctx.addIssue({
        code: 'custom',
        path: ['METRICS_TOKEN'],
        message:
          'is required in production: it guards /metrics and /api/internal/* (make one with `openssl rand -hex 24`)',
      });
    }
    const appHost = new URL(env.APP_URL).hostname.replace(/\.$/, '');
    const sites = env.SITES_DOMAIN.toLowerCase();
    if (appHost.endsWith(`.${sites}`)) {
      ctx.addIssue({
        code: 'custom',
        path: ['APP_URL'],
        message: `the app must not live under SITES_DOMAIN (${sites}): tenant sites would share its origin`,
      });
    } else if (appHost === sites && sites !== 'localhost') {
      // `localhost` (the development default for both) is a top-level name: browsers take every
      // `*.localhost` for a site of its own. Under any other name, tenants would share the app's.
      ctx.addIssue({
        code: 'custom',
        path: ['APP_URL'],
        message: `the app must not live on SITES_DOMAIN (${sites}) itself: every tenant site would be a subdomain of the app's host, on the same site as the app. Give the app a host outside SITES_DOMAIN (APP_URL=https://app.example.com with SITES_DOMAIN=example.site)`,
      });
    }
  });

export interface Config {
  env: 'development' | 'production' | 'test';
  host: string;
  port: number;
  appUrl: string;
  /** Host name of the app itself, e.g. localhost or app.example.com. */
  appHost: string;
  sitesDomain: string;
  /**
   * Host names answered as the app: its own host, the loopback names and APP_HOSTS. Any other
   * host is a tenant's (a subdomain of SITES_DOMAIN, a custom or parked domain, or nobody's).
   */
  appHosts: string[];
  /** Bearer token `/metrics` asks for; open to anyone who reaches it when unset. */
  metricsToken: string | undefined;
  dataDir: string;
  database:
    | { kind: 'sqlite'; file: string }
    | { kind: 'postgres'; url: string; schema: string | undefined; poolMax: number };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  trustProxy: boolean;
  webDistDir: string;
  shutdownTimeoutMs: number;
  auth: { sessionTtlMs: number; passwordResetTtlMs: number };
  mail: { smtpUrl: string | undefined; from: string; outboxDir: string };
  /** Multiplies every rate limit; above 1 for load tests and e2e runs that sign up many users. */
  rateLimitFactor: number;
  mirror: {
    /** Lets the engine fetch loopback and private addresses: tests and self-hosted intranets only. */
    allowPrivateNetworks: boolean;
    render: 'auto' | 'always' | 'never';
    chromiumPath: string;
    /**
     * Memory of one sandboxed run (a mirror run, a screenshot, an export) and of the Chromium it
     * starts, together; over it the run is killed and fails.
     */
    runMemoryMb: number;
    /**
     * The user sandboxed runs switch to when the server runs as root (a name or uid:gid): no
     * access to the data folder or to the server's process.
     */
    sandboxUser: string;
    /**
     * Sandboxed runs of a server that runs from its TypeScript sources load their task's built
     * JavaScript (`npm test` sets it after its build: seconds less per run).
     */
    sandboxBuilt: boolean;
    blobsDir: string;
    /** Blobs in an S3-compatible bucket instead of `blobsDir` when set. */
    s3:
      | {
          bucket: string;
          prefix: string;
          endpoint: string | undefined;
          region: string;
          forcePathStyle: boolean;
          credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
        }
      | undefined;
    /** Makes a thumbnail of every completed version with Chromium (site cards). */
    versionThumbnails: boolean;
    /** Check every mirrored version against the original in Chromium (issue 21). */
    fidelityChecks: boolean;
    /** Caps the pages a fidelity check takes below the plan's number (a small machine, CI). */
    fidelityMaxPages: number | undefined;
    /**
     * Renders the changed pages of every change report before and after in Chromium (issue 33),
     * as many as a fidelity check takes.
     */
    visualDiffs: boolean;
    /** Idea searches capture their references' screenshots in the background (reference cards). */
    referenceScreenshots: boolean;
  };
  /** A running job renews its lease; when its process dies the job runs again after the lease. */
  /** Jobs run from the database table, or from BullMQ on Redis when `redisUrl` is set. */
  /** Watches' webhook deliveries: the pause before each retry (the last one given up after). */
  webhookRetryDelaysMs: readonly number[];
  jobs: {
    concurrency: number;
    leaseMs: number;
    redisUrl: string | undefined;
    /** Key prefix of the BullMQ queue in Redis. */
    redisPrefix: string;
  };
  /** Idea search: the bundled catalogue always; a web search API (Brave's shape) when a key is set. */
  search: { apiKey: string | undefined; apiUrl: string };
  /**
   * AI customization: an OpenAI-compatible endpoint when `baseUrl` and `model` are set, otherwise
   * the built-in instruction engine. `premiumModel` serves Agency (falls back to `model`).
   */
  ai: {
    baseUrl: string | undefined;
    apiKey: string | undefined;
    model: string | undefined;
    premiumModel: string | undefined;
    timeoutMs: number;
    /** One-off AI rewrite for users without a paid plan, in cents (usd). */
    rewritePriceCents: number;
  };
  /**
   * Card payments. `mode`: `stripe` (then `stripe` is set), `test` (the local test mode, which
   * needs no keys) or `off` (nothing can be bought: production without keys, unless the test mode
   * is asked for by name with PAYMENTS_MODE=test).
   */
  payments: {
    mode: 'stripe' | 'test' | 'off';
    stripe:
      | {
          secretKey: string;
          publishableKey: string;
          webhookSecret: string;
          prices: { pro: string; agency: string };
          /** TEST-ONLY: a local server speaking Stripe's API. */
          apiUrl: string | undefined;
        }
      | undefined;
  };
  /** Custom and parked domains: what their DNS records point at, and how they are checked. */
  domains: {
    /** Where a custom subdomain's CNAME points (SITES_CNAME_TARGET, default SITES_DOMAIN). */
    cnameTarget: string;
    /** What apex domains point A / AAAA records at; none means "ALIAS to cnameTarget". */
    ipv4: string[];
    ipv6: string[];
    /** Servers the checks ask (`ip` or `ip:port`); empty means the system's resolvers. */
    dnsServers: string[];
    dnsTimeoutMs: number;
    /** CAA `issue` values that allow our certificate authority. */
    caaIssuers: string[];
  };
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  // Empty strings in an env file mean "not set", as most tools treat them.
  const cleaned = Object.fromEntries(
    Object.entries(source).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = EnvSchema.safeParse(cleaned);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((issue) => `${issue.path.join('.') || 'env'}: ${issue.message}`),
    );
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    env: env.NODE_ENV,
    host: env.HOST,
    port: env.PORT,
    appUrl: env.APP_URL.replace(/\/+$/, ''),
    appHost: new URL(env.APP_URL).hostname,
    sitesDomain: env.SITES_DOMAIN.toLowerCase(),
    appHosts: [
      ...new Set(
        [new URL(env.APP_URL).hostname.replace(/^\[|\]$/g, ''), 'localhost', '127.0.0.1', '::1']
          .concat(env.APP_HOSTS)
          .map((host) => host.toLowerCase()),
      ),
    ],
    metricsToken: env.METRICS_TOKEN,
    dataDir,
    database: env.DATABASE_URL
      ? {
          kind: 'postgres',
          url: env.DATABASE_URL,
          schema: env.DATABASE_SCHEMA,
          poolMax: env.DATABASE_POOL_MAX,
        }
      : { kind: 'sqlite', file: path.join(dataDir, 'mirror.db') },
    logLevel: env.LOG_LEVEL,
    trustProxy: env.TRUST_PROXY,
    webDistDir: path.resolve(env.WEB_DIST_DIR ?? path.join(repoRoot, 'apps/web/dist')),
    shutdownTimeoutMs: env.SHUTDOWN_TIMEOUT_MS,
    auth: {
      sessionTtlMs: env.SESSION_TTL_DAYS * 86_400_000,
      passwordResetTtlMs: env.PASSWORD_RESET_TTL_MINUTES * 60_000,
    },
    mail: { smtpUrl: env.SMTP_URL, from: env.MAIL_FROM, outboxDir: path.join(dataDir, 'outbox') },
    rateLimitFactor: env.RATE_LIMIT_FACTOR,
    mirror: {
      allowPrivateNetworks: env.MIRROR_ALLOW_PRIVATE_NETWORKS,
      render: env.MIRROR_RENDER,
      chromiumPath: env.CHROMIUM_PATH,
      runMemoryMb: env.MIRROR_RUN_MEMORY_MB,
      sandboxUser: env.MIRROR_SANDBOX_USER,
      sandboxBuilt: env.MIRROR_SANDBOX_BUILT,
      blobsDir: path.join(dataDir, 'blobs'),
      s3: env.S3_BUCKET
        ? {
            bucket: env.S3_BUCKET,
            prefix: env.S3_PREFIX,
            endpoint: env.S3_ENDPOINT,
            region: env.S3_REGION,
            forcePathStyle: env.S3_FORCE_PATH_STYLE,
            // Without keys the SDK's own chain is used (environment, instance role, …).
            credentials:
              env.S3_ACCESS_KEY_ID && env.S3_SECRET_ACCESS_KEY
                ? {
                    accessKeyId: env.S3_ACCESS_KEY_ID,
                    secretAccessKey: env.S3_SECRET_ACCESS_KEY,
                  }
                : undefined,
          }
        : undefined,
      versionThumbnails: env.VERSION_THUMBNAILS,
      fidelityChecks: env.FIDELITY_CHECKS,
      fidelityMaxPages: env.FIDELITY_MAX_PAGES,
      visualDiffs: env.VISUAL_DIFFS,
      referenceScreenshots: env.REFERENCE_SCREENSHOTS,
    },
    webhookRetryDelaysMs: env.WEBHOOK_RETRY_DELAYS_MS
      ? env.WEBHOOK_RETRY_DELAYS_MS.split(',').map(Number)
      : WEBHOOK_RETRY_DELAYS_MS,
    jobs: {
      concurrency: env.JOB_CONCURRENCY,
      leaseMs: env.JOB_LEASE_MS,
      redisUrl: env.REDIS_URL,
      redisPrefix: env.REDIS_PREFIX,
    },
    search: { apiKey: env.SEARCH_API_KEY, apiUrl: env.SEARCH_API_URL },
    ai: {
      baseUrl: env.AI_BASE_URL,
      apiKey: env.AI_API_KEY,
      model: env.AI_MODEL,
      premiumModel: env.AI_MODEL_PREMIUM,
      timeoutMs: env.AI_TIMEOUT_MS,
      rewritePriceCents: env.AI_REWRITE_PRICE_CENTS,
    },
    payments: {
      mode:
        env.PAYMENTS_MODE ??
        (env.STRIPE_SECRET_KEY ? 'stripe' : env.NODE_ENV === 'production' ? 'off' : 'test'),
      stripe:
        env.STRIPE_SECRET_KEY && env.PAYMENTS_MODE !== 'test' && env.PAYMENTS_MODE !== 'off'
          ? {
              secretKey: env.STRIPE_SECRET_KEY,
              publishableKey: env.STRIPE_PUBLISHABLE_KEY!,
              webhookSecret: env.STRIPE_WEBHOOK_SECRET!,
              prices: { pro: env.STRIPE_PRICE_PRO!, agency: env.STRIPE_PRICE_AGENCY! },
              apiUrl: env.STRIPE_API_URL,
            }
          : undefined,
    },
    domains: {
      cnameTarget: (env.SITES_CNAME_TARGET ?? env.SITES_DOMAIN).toLowerCase(),
      ipv4: env.SITES_IPV4,
      ipv6: env.SITES_IPV6.map((address) => address.toLowerCase()),
      dnsServers: env.DNS_SERVERS,
      dnsTimeoutMs: env.DNS_TIMEOUT_MS,
      caaIssuers: env.CAA_ISSUERS.map((issuer) => issuer.toLowerCase()),
    },
  };
}

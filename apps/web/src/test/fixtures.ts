import {
  DEFAULT_USER_SETTINGS,
  STORAGE_KEYS,
  type AnalyticsResponse,
  type CloneRecord,
  type CloneStatus,
  type CloneStatusResponse,
  type FidelityPage,
  type FidelityReportResponse,
  type ReferenceWebsite,
  type SiteVersion,
} from '@mirror/contract';
import type { User } from '../lib/auth-context';

export function makeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'u1',
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    role: 'user',
    plan: 'free',
    locale: 'en',
    settings: structuredClone(DEFAULT_USER_SETTINGS) as User['settings'],
    createdAt: '2025-01-01T00:00:00.000Z',
    ...overrides,
  };
}

/** Signs the browser in as far as the app can tell: a stored token. */
export function storeToken(token = 'token-1'): string {
  window.localStorage.setItem(STORAGE_KEYS.token, token);
  return token;
}

/** A site's analytics with nothing counted yet. */
export function makeAnalytics(overrides: Partial<AnalyticsResponse> = {}): AnalyticsResponse {
  return {
    period: '7d',
    days: [],
    totals: { visits: 0, pageViews: 0, uniqueVisitors: 0, bytes: 0, botViews: 0 },
    topPages: [],
    topReferrers: [],
    ...overrides,
  };
}

export function makeClone(overrides: Partial<CloneRecord> = {}): CloneRecord {
  return {
    id: 'site-1',
    status: 'pending',
    currentStatus: 'starting mirror process',
    previewUrl: 'http://calm-river.localhost:8181/',
    progress: 0,
    estimatedTime: null,
    sourceUrl: 'https://example.com',
    targetDomain: null,
    aiInstructions: null,
    customizations: {},
    isDemo: false,
    error: null,
    syncSchedule: 'off',
    liveVersionId: null,
    ownerPreviewUrl: null,
    thumbnailUrl: null,
    createdAt: '2025-01-10T10:00:00.000Z',
    updatedAt: '2025-01-10T10:00:00.000Z',
    ...overrides,
  };
}

export function makeStatus(
  status: CloneStatus,
  overrides: Partial<CloneStatusResponse> = {},
): CloneStatusResponse {
  const defaults: Record<CloneStatus, Pick<CloneStatusResponse, 'currentStatus' | 'progress'>> = {
    pending: { currentStatus: 'starting mirror process', progress: 0 },
    processing: { currentStatus: 'cloning website', progress: 0.4 },
    completing: { currentStatus: 'finalizing mirror', progress: 0.9 },
    completed: { currentStatus: 'mirror created successfully', progress: 1 },
    failed: { currentStatus: 'mirror failed', progress: 0.4 },
  };
  return {
    id: 'site-1',
    status,
    previewUrl: 'http://calm-river.localhost:8181/',
    estimatedTime: status === 'completed' || status === 'failed' ? null : 12,
    error: null,
    ...defaults[status],
    ...overrides,
  };
}

export function makeVersion(overrides: Partial<SiteVersion> = {}): SiteVersion {
  return {
    id: 'v1',
    number: 1,
    status: 'completed',
    createdAt: '2025-01-10T10:00:00.000Z',
    finishedAt: '2025-01-10T10:01:00.000Z',
    pages: 8,
    assets: 24,
    bytes: 1_572_864,
    failedUrls: 0,
    isLive: true,
    error: null,
    kind: 'mirror',
    draft: false,
    changes: [],
    edits: [],
    unparsed: [],
    instructions: null,
    previewUrl: null,
    thumbnailUrl: null,
    ...overrides,
  };
}

export function makeReference(overrides: Partial<ReferenceWebsite> = {}): ReferenceWebsite {
  return {
    title: 'Crumb & Co Bakery',
    url: 'https://crumb.example/',
    screenshot: null,
    screenshotUrl: null,
    frameable: false,
    previewUrl: 'https://crumb.example/',
    description: 'A warm neighborhood bakery site with online ordering.',
    category: 'restaurant',
    source: 'catalogue',
    ...overrides,
  };
}

/** One page of a fidelity check at one width, faithful unless told otherwise. */
export function makeFidelityPage(overrides: Partial<FidelityPage> = {}): FidelityPage {
  const path = overrides.path ?? '/';
  const viewport = overrides.viewport ?? 'desktop';
  const shot = (kind: string) => `/api/domains/fidelity-shots/${kind}-${viewport}${path}.png`;
  return {
    path,
    url: `https://example.com${path}`,
    viewport,
    diffPercent: 0.2,
    noisePercent: 0.1,
    textSimilarity: 1,
    failedRequests: [],
    externalRequests: [],
    scriptErrors: [],
    reasons: [],
    belowThreshold: false,
    repaired: null,
    unmeasured: null,
    originalShot: shot('original'),
    copyShot: shot('copy'),
    diffShot: shot('diff'),
    ...overrides,
  };
}

/** A completed fidelity report of the live version `v1`. */
export function makeFidelityReport(
  overrides: Partial<FidelityReportResponse> = {},
): FidelityReportResponse {
  return {
    state: 'completed',
    score: 99.62,
    pagesChecked: 1,
    versionId: 'v1',
    checkedAt: '2025-01-10T10:05:00.000Z',
    belowThreshold: 0,
    repairedCount: 0,
    unmeasured: 0,
    repairedVersionId: null,
    error: null,
    pages: [makeFidelityPage(), makeFidelityPage({ viewport: 'mobile' })],
    ...overrides,
  };
}

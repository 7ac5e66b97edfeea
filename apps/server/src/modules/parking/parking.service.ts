import {
  DEFAULT_LOCALE,
  DOMAIN_MESSAGES,
  isLocaleCode,
  PARKED_DOMAIN_LIMITS,
  type ParkDomainBody,
  type ParkedDomain,
  type ParkedMessage,
  type ParkingTemplate,
  type UpdateParkedDomainBody,
} from '@mirror/contract';
import type { FastifyBaseLogger } from 'fastify';
import { badRequest, forbidden } from '../../errors.js';
import type { Db } from '../../platform/db/database.js';
import type { UserRow } from '../../platform/db/schema.js';
import type { AnalyticsService } from '../analytics/analytics.service.js';
import type { DomainRow, DomainsService } from '../domains/domains.service.js';
import {
  countMessages,
  findParkedPage,
  findParkedPages,
  insertParkedPage,
  listMessages,
  updateParkedPage,
  type ParkedPageRow,
} from './parking.repository.js';
import { renderParkingPreview, type ParkingPreview } from './parking-pages.js';

const MESSAGES_LISTED = 200;

/** What the owner's edits leave behind must still make a page. */
function assertValidPage(page: {
  template: ParkedPageRow['template'];
  content: string | null;
  forSale: boolean;
  askingPrice: number | null;
}): void {
  if (page.template === 'custom' && !page.content?.trim()) {
    throw badRequest(DOMAIN_MESSAGES.contentRequired);
  }
  if (page.forSale && page.askingPrice === null) {
    throw badRequest(DOMAIN_MESSAGES.askingPriceRequired);
  }
}

/** A project id from the time, as SPEC §7 asks when the request has none. */
function projectIdFromTime(now = new Date()): string {
  return `project-${now.getTime().toString(36)}`;
}

export interface ParkingServiceDeps {
  db: Db;
  analytics: Pick<AnalyticsService, 'parkedVisits'>;
  domains: DomainsService;
  /** Tells the parked pages that a page changed (they cache pages briefly). */
  onPageChanged(domainId: string): void;
  log: FastifyBaseLogger;
}

/** The owner's side of domain parking (SPEC §7 park, park/{id}, parked, delete). */
export function createParkingService(deps: ParkingServiceDeps) {
  const { db, domains } = deps;

  const NO_VISITS = { visitors: 0, pageViews: 0 };

  function toParked(
    row: DomainRow,
    page: ParkedPageRow,
    messageCount: number,
    visits: ParkedDomain['visits'],
  ): ParkedDomain {
    return {
      ...domains.verificationOf(row),
      id: row.id,
      kind: 'parked',
      domain: row.domain,
      projectId: page.project_id,
      template: page.template,
      content: page.content,
      monetization: page.monetization,
      language: isLocaleCode(page.language) ? page.language : null,
      message: page.message,
      forSale: page.for_sale === 1,
      askingPrice: page.asking_price,
      url: domains.urlOf(row),
      messageCount,
      visits,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
    };
  }

  async function recordOf(row: DomainRow): Promise<ParkedDomain> {
    const [page, counts, visits] = await Promise.all([
      findParkedPage(db, row.id),
      countMessages(db, [row.id]),
      deps.analytics.parkedVisits([row.id]),
    ]);
    return toParked(row, page!, counts.get(row.id) ?? 0, visits.get(row.id) ?? NO_VISITS);
  }

  return {
    /** POST /domains/park: the domain joins the account with its page; DNS verification follows. */
    async park(user: UserRow, body: ParkDomainBody): Promise<ParkedDomain> {
      const page = {
        template: body.template ?? 'default',
        content: body.content?.trim() ? body.content : null,
        forSale: body.forSale ?? false,
        askingPrice: body.askingPrice ?? null,
      };
      assertValidPage(page);
      const limit = PARKED_DOMAIN_LIMITS[user.plan];
      if ((await domains.countOwned(user, 'parked')) >= limit) {
        throw forbidden(DOMAIN_MESSAGES.parkedDomainLimit(limit));
      }
      const row = await domains.claim(
        user,
        { domain: body.domain, kind: 'parked', siteId: null },
        (trx, id) =>
          insertParkedPage(trx, {
            domain_id: id,
            project_id: body.projectId ?? projectIdFromTime(),
            template: page.template,
            content: page.content,
            monetization: 'none',
            language: body.language ?? null,
            message: body.message?.trim() ? body.message.trim() : null,
            for_sale: page.forSale ? 1 : 0,
            asking_price: page.askingPrice,
          }),
      );
      deps.log.info({ domain: row.domain }, 'domain parked');
      return recordOf(row);
    },

    /** PUT /domains/park/{id}: changes the page; the result must still be a valid page. */
    async update(user: UserRow, id: string, body: UpdateParkedDomainBody): Promise<ParkedDomain> {
      const row = await domains.ownedDomain(user, id, 'parked');
      const current = (await findParkedPage(db, row.id))!;
      const content =
        body.content === undefined ? current.content : body.content?.trim() ? body.content : null;
      const next = {
        template: body.template ?? current.template,
        content,
        forSale: body.forSale ?? current.for_sale === 1,
        askingPrice: body.askingPrice === undefined ? current.asking_price : body.askingPrice,
      };
      assertValidPage(next);
      await updateParkedPage(db, row.id, {
        template: next.template,
        content: next.content,
        for_sale: next.forSale ? 1 : 0,
        asking_price: next.askingPrice,
        ...(body.monetization ? { monetization: body.monetization } : {}),
        ...(body.language !== undefined ? { language: body.language } : {}),
        ...(body.message !== undefined
          ? { message: body.message?.trim() ? body.message.trim() : null }
          : {}),
      });
      deps.onPageChanged(row.id);
      return recordOf(row);
    },

    async list(user: UserRow): Promise<ParkedDomain[]> {
      const rows = await domains.listOwned(user, 'parked');
      const ids = rows.map((row) => row.id);
      const [pages, counts, visits] = await Promise.all([
        findParkedPages(db, ids),
        countMessages(db, ids),
        deps.analytics.parkedVisits(ids),
      ]);
      return rows
        .filter((row) => pages.has(row.id))
        .map((row) =>
          toParked(
            row,
            pages.get(row.id)!,
            counts.get(row.id) ?? 0,
            visits.get(row.id) ?? NO_VISITS,
          ),
        );
    },

    async get(user: UserRow, id: string): Promise<ParkedDomain> {
      return recordOf(await domains.ownedDomain(user, id, 'parked'));
    },

    async remove(user: UserRow, id: string): Promise<void> {
      await domains.removeDomain(user, id, 'parked');
      deps.onPageChanged(id);
    },

    /**
     * GET /domains/parked/{id}/preview: the page with a template (the saved one by default), with
     * the saved message, language and price, whether or not the domain's DNS is active yet.
     */
    async preview(user: UserRow, id: string, template?: ParkingTemplate): Promise<ParkingPreview> {
      const row = await domains.ownedDomain(user, id, 'parked');
      const page = (await findParkedPage(db, row.id))!;
      const chosen = template ?? page.template;
      if (chosen === 'custom' && !page.content?.trim()) {
        throw badRequest(DOMAIN_MESSAGES.contentRequired);
      }
      const ownerLocale = isLocaleCode(user.locale) ? user.locale : DEFAULT_LOCALE;
      return renderParkingPreview({
        domain: row.domain,
        template: chosen,
        content: page.content,
        locale: isLocaleCode(page.language) ? page.language : ownerLocale,
        message: page.message,
        forSale: page.for_sale === 1,
        askingPrice: page.asking_price,
      });
    },

    /** GET /domains/parked/{id}/messages: contact messages and offers, newest first. */
    async messages(user: UserRow, id: string): Promise<ParkedMessage[]> {
      const row = await domains.ownedDomain(user, id, 'parked');
      return (await listMessages(db, row.id, MESSAGES_LISTED)).map((m) => ({
        id: m.id,
        kind: m.kind,
        name: m.name,
        email: m.email,
        message: m.message,
        amount: m.amount,
        createdAt: m.created_at,
      }));
    },
  };
}

export type ParkingService = ReturnType<typeof createParkingService>;

/** Shapes shared by the archive writer, reader and replay client (issue 35). */

/** A header list as sent: names as written, order and repeats kept. */
export type HeaderList = [string, string][];

/** A response as fetched: status line, headers and the payload (the body a browser sees). */
export interface WarcResponseInput {
  type: 'response';
  url: string;
  /** When it was fetched: the record's WARC-Date. */
  date: Date;
  status: number;
  statusText?: string;
  headers: HeaderList;
  /**
   * The payload, streamed. Called twice for a payload not yet seen in the file: once to measure
   * its length and digests, once to write it (a WARC record states both before the bytes).
   */
  payload: () => AsyncIterable<Uint8Array>;
  /** sha256 of the payload in hex, when known: a duplicate is then written without reading it. */
  payloadSha256?: string;
  /** The request, written as a `request` record after the response (WARC-Concurrent-To). */
  request?: { method: string; headers: HeaderList };
}

/** The origin answered 304 Not Modified to a revalidation of a response fetched before. */
export interface WarcRevisitInput {
  type: 'revisit';
  profile: 'server-not-modified';
  url: string;
  date: Date;
  /** When the response it confirms was fetched. */
  refersToDate: Date;
  status: 304;
  headers: HeaderList;
}

/** A document made rather than fetched: a rendered DOM, a screenshot. */
export interface WarcResourceInput {
  type: 'resource';
  url: string;
  date: Date;
  contentType: string;
  payload: () => AsyncIterable<Uint8Array>;
}

export type WarcInput = WarcResponseInput | WarcRevisitInput | WarcResourceInput;

/** One line of a CDXJ index (pywb's and ReplayWeb.page's format). */
export interface CdxjLine {
  /** SURT form of the URL, e.g. `com,example)/about?a=1`. */
  urlkey: string;
  /** 14 digits, YYYYMMDDhhmmss (UTC). */
  timestamp: string;
  url: string;
  mime: string;
  /** Absent for resource records. */
  status?: number;
  /** The payload digest without its algorithm prefix (hex sha256), as warcio's indexer writes. */
  digest: string;
  /** Bytes of the record's gzip member in the WARC file. */
  length: number;
  /** Where the record's gzip member starts in the WARC file. */
  offset: number;
  filename: string;
}

/** A response kept by the reader: its payload is in the BlobStore handed to openArchive. */
export interface ArchivedResponse {
  /** The URL without fragment. */
  url: string;
  date: Date;
  status: number;
  statusText: string;
  /**
   * Names lower-case, repeats joined with ', ' (as HttpResponse). The payload is decoded, so
   * transfer-encoding and content-encoding are gone and content-length is the payload's size.
   */
  headers: Record<string, string>;
  /** sha256 (hex) of the payload in the store. */
  hash: string;
  size: number;
  /** Streams the payload from the store. */
  body(): AsyncIterable<Uint8Array>;
}

export interface ArchivePage {
  url: string;
  title?: string;
  ts: Date;
}

export type ArchiveFormat = 'warc' | 'warc.gz' | 'wacz';

export interface ArchiveInfo {
  format: ArchiveFormat;
  /** The warcinfo's `software` (or the WACZ datapackage's), when stated. */
  software?: string;
  /** The WACZ's title, when stated. */
  title?: string;
  /** WARC records read, of every type. */
  records: number;
  /** URLs with a usable response. */
  responses: number;
  /** Revisit records resolved to an earlier payload. */
  revisits: number;
  /** Records left out (a payload that does not decode, a revisit whose original is absent). */
  skipped: number;
  /** Payload bytes put in the store (decoded). */
  payloadBytes: number;
  /** What was left out and why, one line each (at most 50). */
  warnings: string[];
}

export interface ArchiveIndex {
  info: ArchiveInfo;
  /** One per URL: the latest usable response. */
  responses(): Iterable<ArchivedResponse>;
  /** The response for a URL (fragment ignored), exactly as recorded; undefined when absent. */
  get(url: string): ArchivedResponse | undefined;
  /** From pages/pages.jsonl when the archive has it, else its HTML 200 responses. */
  pages(): ArchivePage[];
}

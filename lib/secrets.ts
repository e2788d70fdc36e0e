/**
 * mm's secrets, and their redaction from everything mm prints or records. A secret is the agent
 * file's `apiKey` (or `$MM_API_KEY`), the password of a `url` that holds credentials
 * (`http://user:sk-…@host/v1`) and the value of a URL's query parameter whose name says it is one
 * (`?token=…`, `&api_key=…`: {@linkcode isSecretParameter}), of the model server's url and of every
 * MCP server's; they are told once, at start-up ({@linkcode addSecret}). What mm writes to its
 * terminal, stdout, stderr, the editor and the session files goes through {@linkcode redact}: every
 * userinfo of a URL becomes `***`, and so does the value of every such query parameter and every
 * secret. A child process never gets them in its environment (lib/child_env.ts).
 */

/** What a secret is replaced by. */
export const REDACTED = "***";

/**
 * Secrets shorter than this are not looked for in texts and environments: a placeholder key
 * (`ollama`, `none`) is no secret, and replacing it everywhere would garble the output.
 */
export const MIN_SECRET_LENGTH = 8;

/** The secret values of this process. */
const secrets = new Set<string>();

/**
 * The userinfo of a URL in a text: `user:password@` after `scheme://`, of the characters RFC 3986
 * allows there (never a quote or a backslash: a redacted JSON text stays JSON).
 */
const USERINFO = /\b([a-z][a-z0-9+.-]*:\/\/)[\w\-.~%!$&'()*+,;=:]+@/gi;

/**
 * A query parameter of a URL in a text (after `?`, `&` or `;`): its name, and its value up to the
 * next parameter, fragment, space, quote, backslash or angle bracket (a redacted JSON text stays
 * JSON).
 */
const QUERY_PARAMETER = /([?&;])([\w.~%+-]+)=([^&#;\s"'\\<>]+)/g;

/**
 * Whether a query parameter named `name` holds a secret: its name, without case and separators,
 * holds `token`, `secret`, `passw`, `auth`, `credential` or `signature`, ends with `key`
 * (`api_key`, `apiKey`, `key`), or is `sig` (a signed URL's).
 */
export function isSecretParameter(name: string): boolean {
  const plain = name.toLowerCase().replace(/[^a-z]/g, "");
  return /token|secret|passw|auth|credential|signature/.test(plain) || plain.endsWith("key") ||
    plain === "sig";
}

/** `text` with the value of every secret query parameter replaced by `***`. */
function redactParameters(text: string): string {
  if (!text.includes("=")) return text;
  return text.replace(
    QUERY_PARAMETER,
    (all, sep: string, name: string) =>
      isSecretParameter(decoded(name)) ? `${sep}${name}=${REDACTED}` : all,
  );
}

/**
 * Marks `value` as a secret of this process (an `apiKey`). Values shorter than
 * {@linkcode MIN_SECRET_LENGTH} are ignored.
 */
export function addSecret(value: string | undefined): void {
  if (value && value.length >= MIN_SECRET_LENGTH) secrets.add(value);
}

/**
 * Marks the credentials of `url` (`http://user:password@host`) and the values of its secret query
 * parameters (`?token=…`), if it has some, as secrets.
 */
export function addUrlSecrets(url: string | undefined): void {
  if (!url) return;
  const m = /^[a-z][a-z0-9+.-]*:\/\/([\w\-.~%!$&'()*+,;=:]+)@/i.exec(url);
  if (m) {
    // The password is all after the first colon; each part as written (`p%40ss…`) and decoded.
    const colon = m[1].indexOf(":");
    const user = colon < 0 ? m[1] : m[1].slice(0, colon);
    const password = colon < 0 ? "" : m[1].slice(colon + 1);
    for (const part of [m[1], password, decoded(password), user, decoded(user)]) addSecret(part);
  }
  for (const [, , name, value] of url.matchAll(QUERY_PARAMETER)) {
    if (isSecretParameter(decoded(name))) { for (const v of [value, decoded(value)]) addSecret(v); }
  }
}

/** `text` with its percent-escapes decoded, or as it is when they are not valid. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** Whether `value` is one of this process's secrets. */
export function isSecretValue(value: string): boolean {
  return secrets.has(value);
}

/** `url` with its userinfo (`user:password@`) and its secret query parameters' values made `***`. */
export function redactUrl(url: string): string {
  return redactParameters(url.replace(USERINFO, `$1${REDACTED}@`));
}

/**
 * `text` with every URL's userinfo, every secret query parameter's value and every secret of this
 * process replaced by `***`.
 */
export function redact(text: string): string {
  let out = text.includes("@") ? text.replace(USERINFO, `$1${REDACTED}@`) : text;
  out = redactParameters(out);
  for (const secret of secrets) if (out.includes(secret)) out = out.replaceAll(secret, REDACTED);
  return out;
}

/**
 * `head`, what a cut keeps before its marker, with its end made `***` when it is the start of a
 * secret ({@linkcode MIN_SECRET_LENGTH} characters of it at least): a cut never leaves part of a
 * secret that no longer matches it.
 */
export function redactCutEnd(head: string): string {
  for (const secret of secrets) {
    for (let n = secret.length; n >= MIN_SECRET_LENGTH; n--) {
      if (head.endsWith(secret.slice(0, n))) {
        head = head.slice(0, head.length - n) + REDACTED;
        break;
      }
    }
  }
  return head;
}

/**
 * `tail`, what a cut keeps after its marker, with its start made `***` when it is the end of a
 * secret ({@linkcode MIN_SECRET_LENGTH} characters of it at least).
 */
export function redactCutStart(tail: string): string {
  for (const secret of secrets) {
    for (let n = secret.length; n >= MIN_SECRET_LENGTH; n--) {
      if (tail.startsWith(secret.slice(secret.length - n))) {
        tail = REDACTED + tail.slice(n);
        break;
      }
    }
  }
  return tail;
}

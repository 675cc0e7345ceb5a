// Which lines of a source file hold code the base did not have anywhere. A
// line diff calls a moved function, a file renamed or split, or a statement a
// formatter wrapped over three lines "changed", and the gate would then spend
// hours on mutants of code that was already judged. Here the code is compared
// as tokens, comments and layout aside: a token is old when some run of
// WINDOW tokens around it appears, in that order, somewhere in the base's
// sources; a line is new when it holds a token that is not old.
import ts from 'typescript';

/** Tokens in a run: long enough that a changed operator or name is never found elsewhere by chance, short enough to keep a line's neighbours old. */
export const WINDOW = 8;

/** The files compared as tokens; others are compared by lines. */
export const SOURCE_FILE = /\.(?:[cm]?ts|tsx|[cm]?js|jsx)$/;

/** Tokens a formatter adds or drops without changing what the code does (see also WHOLE_EXPRESSION_OF). */
const LAYOUT_ONLY = new Set([ts.SyntaxKind.CommaToken, ts.SyntaxKind.SemicolonToken, ts.SyntaxKind.EndOfFileToken]);

/** Where parentheses around a whole expression change nothing, and a formatter adds them to wrap it. */
const WHOLE_EXPRESSION_OF = new Set([
  ts.SyntaxKind.ReturnStatement,
  ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.VariableDeclaration,
  ts.SyntaxKind.PropertyAssignment,
  ts.SyntaxKind.ExpressionStatement,
]);

interface Token {
  text: string;
  firstLine: number;
  lastLine: number;
}

function scriptKind(file: string): ts.ScriptKind {
  if (/\.[cm]?tsx?$/.test(file)) return file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  return file.endsWith('x') ? ts.ScriptKind.JSX : ts.ScriptKind.JS;
}

/** The tokens of a source file, comments left out; a string by its value, so a change of quotes is no change. */
export function tokensOf(file: string, text: string): Token[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, scriptKind(file));
  const tokens: Token[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind >= ts.SyntaxKind.FirstJSDocNode && node.kind <= ts.SyntaxKind.LastJSDocNode) return;
    if (ts.isParenthesizedExpression(node) && WHOLE_EXPRESSION_OF.has(node.parent.kind)) {
      visit(node.expression);
      return;
    }
    const children = node.getChildren(source);
    if (children.length > 0) {
      children.forEach(visit);
      return;
    }
    if (LAYOUT_ONLY.has(node.kind)) return;
    const start = node.getStart(source);
    tokens.push({
      text: ts.isStringLiteral(node) ? JSON.stringify(node.text) : node.getText(source),
      firstLine: source.getLineAndCharacterOfPosition(start).line + 1,
      lastLine: source.getLineAndCharacterOfPosition(node.getEnd()).line + 1,
    });
  };
  visit(source);
  return tokens;
}

/** Each file's runs are padded at both ends, so a file shorter than a window, or its first and last tokens, can be found too. */
function windows(tokens: readonly Token[]): string[] {
  const padded = [
    ...Array<string>(WINDOW - 1).fill('\u0002'),
    ...tokens.map((t) => t.text),
    ...Array<string>(WINDOW - 1).fill('\u0003'),
  ];
  const runs: string[] = [];
  for (let i = 0; i + WINDOW <= padded.length; i += 1) runs.push(padded.slice(i, i + WINDOW).join('\u0000'));
  return runs;
}

/** Every run of WINDOW tokens in the base's sources. */
export function baseRuns(files: Iterable<{ file: string; text: string }>): Set<string> {
  const runs = new Set<string>();
  for (const { file, text } of files) for (const run of windows(tokensOf(file, text))) runs.add(run);
  return runs;
}

/** The lines (counted from 1, ascending) of FILE holding a token found in no base run around it. */
export function newLines(file: string, text: string, base: ReadonlySet<string>): number[] {
  const tokens = tokensOf(file, text);
  const old = new Array<boolean>(tokens.length).fill(false);
  // Run i of the padded list covers tokens i-(WINDOW-1) .. i.
  windows(tokens).forEach((run, i) => {
    if (!base.has(run)) return;
    for (let t = Math.max(0, i - WINDOW + 1); t <= Math.min(tokens.length - 1, i); t += 1) old[t] = true;
  });
  const lines = new Set<number>();
  tokens.forEach((token, i) => {
    if (old[i]) return;
    for (let line = token.firstLine; line <= token.lastLine; line += 1) lines.add(line);
  });
  return [...lines].sort((a, b) => a - b);
}

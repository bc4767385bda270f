// Functions of a TypeScript or JavaScript file (.ts, .js, .mjs), found by the TypeScript compiler's own
// parser (node_modules/typescript, the compiler that builds bindings/src).
import ts from 'typescript';

const FUNCTION_KINDS = new Set([
  ts.SyntaxKind.FunctionDeclaration, ts.SyntaxKind.FunctionExpression, ts.SyntaxKind.ArrowFunction,
  ts.SyntaxKind.MethodDeclaration, ts.SyntaxKind.Constructor, ts.SyntaxKind.GetAccessor,
  ts.SyntaxKind.SetAccessor,
]);

/** The name a function is known by: its own, or that of the variable or property holding it. */
function functionName(node) {
  if (node.kind === ts.SyntaxKind.Constructor) return 'constructor';
  if (node.name) return node.name.getText();
  const parent = node.parent;
  if ((ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
      && parent.name) {
    return parent.name.getText();
  }
  return '(anonymous)';
}

/**
 * Whether `node` is the callback of a test suite (`describe(name, () => {...})`, `describe.skip`, ...):
 * a scope that groups tests, as a module or class body does, not a function of its own; its tests
 * and helpers are checked one by one.
 */
function suiteCallback(node) {
  const call = node.parent;
  return ts.isCallExpression(call) && call.arguments.includes(node) && /^describe(\.\w+)*$/.test(call.expression.getText());
}

/**
 * Every function with a body in `text`, callbacks and nested functions included (a test suite's
 * callback aside: suiteCallback), as { name, start, end, lines }: 1-based lines from its signature to
 * its closing brace. `fileName` picks the dialect.
 */
export function typescriptFunctions(fileName, text) {
  const scriptKind = /\.m?ts$/.test(fileName) ? ts.ScriptKind.TS : ts.ScriptKind.JS;
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, scriptKind);
  const lineOf = (pos) => source.getLineAndCharacterOfPosition(pos).line + 1;
  const found = [];
  const visit = (node) => {
    if (FUNCTION_KINDS.has(node.kind) && node.body && !suiteCallback(node)) {
      const start = lineOf(node.getStart(source));
      const end = lineOf(node.end);
      found.push({ name: functionName(node), start, end, lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

// A Stryker ignorer: the message strings of log calls (`logger.info('Order recorded', …)`) are not
// mutated. What a log line says is for people reading the logs; a test pinning every message's
// wording would be a test of wording, and its mutants would only add noise to the score. The log
// call itself and its keys (the values an operator or alarm reads) are still mutated.
import { declareValuePlugin, PluginKind } from '@stryker-mutator/api/plugin';

const LOG_METHODS = new Set(['debug', 'info', 'warn', 'error', 'critical']);

/** True for `logger.<level>(…)`. */
function isLogCall(node) {
  return (
    node?.type === 'CallExpression' &&
    node.callee.type === 'MemberExpression' &&
    node.callee.object.type === 'Identifier' &&
    node.callee.object.name === 'logger' &&
    node.callee.property.type === 'Identifier' &&
    LOG_METHODS.has(node.callee.property.name)
  );
}

export const strykerPlugins = [
  declareValuePlugin(PluginKind.Ignore, 'log-messages', {
    shouldIgnore(path) {
      const isText = path.isStringLiteral() || path.isTemplateLiteral();
      if (isText && isLogCall(path.parent) && path.parent.arguments[0] === path.node) {
        return 'A log message: wording for people, not behaviour';
      }
      return undefined;
    },
  }),
];

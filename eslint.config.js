// ESLint flat config for the browser client (src/paohuzi/server/client): plain ES
// modules run as they are by the browser, so the browser's globals and nothing else.
// `npx eslint src/paohuzi/server/client` (tests/web/test_eslint.py runs it).
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["src/paohuzi/server/client/**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
    rules: {
      "no-unused-vars": ["error", { args: "after-used", caughtErrors: "none" }],
      "no-shadow": "error",
      "eqeqeq": ["error", "always"],
      "prefer-const": "error",
      "no-var": "error",
    },
  },
];

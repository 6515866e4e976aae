import fs from 'node:fs'
import path from 'node:path'
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

// The repository's own rules: one file naming style, and no file beside a folder of the same name
// (`pages.ts` next to `pages/` makes readers guess which one an import means).
const KEBAB = /^[a-z0-9]+(-[a-z0-9]+)*(\.[a-z0-9]+)*$/
const portico = {
  rules: {
    'file-name': {
      meta: { type: 'suggestion', schema: [] },
      create(context) {
        const name = path.basename(context.filename)
        return {
          Program(node) {
            if (!KEBAB.test(name)) {
              context.report({ node, message: `File names are kebab-case: rename "${name}".` })
            }
            const stem = path.join(path.dirname(context.filename), name.split('.')[0])
            if (name.includes('.config.')) return
            if (fs.existsSync(stem) && fs.statSync(stem).isDirectory()) {
              context.report({
                node,
                message: `"${name}" sits beside a folder of the same name: move it into the folder.`,
              })
            }
          },
        }
      },
    },
  },
}

// Import direction: web → react → sdk → (HTTP) → server. Another package is reached only through
// its named entry points (its package.json `exports`), never by a path into its sources.
const intoPackageSources = {
  group: ['**/packages/*/src/**', '**/apps/*/src/**', '../../*/src/**', '../../../*/src/**'],
  message: "Import another package through its entry points ('@portico/sdk', '@portico/react').",
}
const deepImports = {
  group: ['@portico/sdk/*/**', '!@portico/sdk/wallet/*', '@portico/react/*', '@portico/server/*'],
  message: "Use a named entry point of the package ('@portico/sdk/backend', '@portico/react').",
}
const restrict = (...patterns) => ({
  'no-restricted-imports': ['error', { patterns: [intoPackageSources, deepImports, ...patterns] }],
})

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/dist-e2e/**',
      '**/node_modules/**',
      'data/**',
      '**/test-results/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { portico },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['{packages,apps,e2e,bench,scripts,test-kit}/**/*.{ts,tsx,mjs,js}'],
    ignores: ['**/*.d.ts'],
    rules: { 'portico/file-name': 'error' },
  },
  {
    files: ['packages/sdk/src/**'],
    rules: restrict({
      group: ['react', 'react-dom', '@portico/react', '@portico/server', '@portico/web'],
      message: 'The SDK is framework-free and knows nothing of the server or the app.',
    }),
  },
  {
    files: ['packages/react/src/**'],
    rules: restrict({
      group: ['@portico/server', '@portico/web'],
      message: 'The React bindings build on the SDK only.',
    }),
  },
  {
    files: ['apps/web/src/**'],
    rules: restrict({
      group: ['@portico/server', 'fastify', 'drizzle-orm', '@electric-sql/*', 'pg'],
      message: 'The web app reaches the server over HTTP, through the SDK.',
    }),
  },
  {
    files: ['packages/server/src/**'],
    ignores: ['packages/server/src/**/*.test.ts'],
    rules: restrict(
      {
        group: ['@portico/react', '@portico/web', 'react'],
        message: 'The server never imports browser code.',
      },
      {
        // (a regex: in gitignore-style groups, `!@portico/sdk/wire` cannot re-include a path under an excluded `@portico/sdk`)
        regex: '^@portico/sdk(/(?!(errors|wire)$).*)?$',
        message:
          'The server may share only pure SDK modules (errors, wire), never its browser parts.',
      },
    ),
  },
)

// React bindings of the Portico SDK: provider and hooks (issue: wallet connection and sign-in).
export {}

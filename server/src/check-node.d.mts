// check-node.mjs exports nothing; it is imported for its start-up check only.
export {};

/** One pending Discord sign-in: the state's hash and its PKCE verifier, consumed once. */
export type OAuthStatesTable = {
  state_hash: string;
  code_verifier: string;
  expires_at: string;
};

export type AuthTables = { oauth_states: OAuthStatesTable };

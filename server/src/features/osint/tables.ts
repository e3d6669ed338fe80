/** OSINT tables (migration 030). */
export type OsintSearchesTable = {
  /** The search's id (the page's searchId, or one the server made). */
  id: string;
  /** The member's Discord id. */
  user_id: string;
  type: string;
  query: string;
  overall_risk: string;
  /** The whole result as JSON, as the member saw it. */
  result: string;
  created_at: string;
};

export type OsintSiteReportsTable = {
  id: string;
  search_id: string;
  site: string;
  account: string;
  verdict: string;
  note: string | null;
  reporter_id: string;
  reporter_name: string;
  status: string;
  created_at: string;
};

/** Sites taken out of scans: by the admins' self-check or after repeated reports. */
export type OsintDisabledSitesTable = {
  name: string;
  reason: string;
  disabled_at: string;
};

export type OsintTables = {
  osint_searches: OsintSearchesTable;
  osint_site_reports: OsintSiteReportsTable;
  osint_disabled_sites: OsintDisabledSitesTable;
};

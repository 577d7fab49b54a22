/**
 * Where the person who meets a provider error sets what it is about, as the ends of its
 * sentences: the plugin's settings tab, or the command line's flags and variables.
 */
export interface SettingHints {
  checkKey: string;
  addKey: string;
  checkModel: string;
  checkRequest: string;
  checkBaseUrl: string;
  /** How to wait longer for a slow server; empty where there is no such setting. */
  raiseTimeout: string;
  checkProvider: string;
}

export const PLUGIN_SETTING_HINTS: SettingHints = {
  checkKey: "Check the key in Recursa's settings.",
  addKey: "Add one in Recursa's settings.",
  checkModel: "Check the model name and the base URL in Recursa's settings.",
  checkRequest: "Check the model and its settings in Recursa's settings.",
  checkBaseUrl: "Check the base URL in Recursa's settings",
  raiseTimeout: ", or raise the timeout in Recursa's settings",
  checkProvider: "Check the base URL and the provider kind in Recursa's settings.",
};

export const COMMAND_LINE_HINTS: SettingHints = {
  checkKey: 'Check --api-key (or RECURSA_API_KEY).',
  addKey: 'Give one with --api-key (or RECURSA_API_KEY).',
  checkModel: 'Check --model and --base-url (or RECURSA_MODEL and RECURSA_BASE_URL).',
  checkRequest: 'Check --model (or RECURSA_MODEL).',
  checkBaseUrl: 'Check --base-url (or RECURSA_BASE_URL)',
  raiseTimeout: '',
  checkProvider: 'Check --base-url and --provider (or RECURSA_BASE_URL and RECURSA_PROVIDER).',
};

/** The version of mm, printed by `mm --version` and sent as `User-Agent: mm/<version>`. */
export const VERSION = "0.1.0";

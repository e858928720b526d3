package org.eafr.namenode.power.driver;

import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.alias.CredentialProvider;
import org.apache.hadoop.security.alias.CredentialProviderFactory;

/**
 * BMC passwords from Hadoop's CredentialProvider API only ({@code hadoop.security.credential.provider.path}, filled
 * with {@code hadoop credential create ALIAS -provider ...}). Unlike {@code Configuration.getPassword}, there is no
 * fallback to a clear-text value in hdfs-site.xml. Errors name the alias and the providers, never a value.
 */
final class BmcCredentials {
  private final Configuration conf;

  BmcCredentials(Configuration conf) {
    this.conf = conf;
  }

  /** The secret stored under {@code alias}; {@code usedBy} names who needs it in errors. */
  Secret password(String alias, String usedBy) {
    String path = conf.get(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH, "");
    List<CredentialProvider> providers;
    try {
      providers = CredentialProviderFactory.getProviders(conf);
    } catch (IOException e) {
      throw new IllegalArgumentException("credential providers " + CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH
          + " = " + path + " cannot be opened: " + e.getMessage(), e);
    }
    if (providers.isEmpty()) {
      throw new IllegalArgumentException(usedBy + " needs the password under credential alias " + alias
          + ", but no credential provider is configured: set " + CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH
          + " (e.g. jceks://file/etc/hadoop/eafr-bmc.jceks) and run hadoop credential create " + alias
          + " -provider ...");
    }
    for (CredentialProvider provider : providers) {
      CredentialProvider.CredentialEntry entry;
      try {
        entry = provider.getCredentialEntry(alias);
      } catch (IOException e) {
        throw new IllegalArgumentException("credential provider " + provider + " cannot be read for alias " + alias
            + ": " + e.getMessage(), e);
      }
      if (entry != null && entry.getCredential() != null) {
        return new Secret(entry.getCredential());
      }
    }
    throw new IllegalArgumentException(usedBy + " needs credential alias " + alias + ", which none of the providers "
        + CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH + " = " + path + " holds: run hadoop credential create "
        + alias + " -provider " + path.split(",")[0]);
  }
}

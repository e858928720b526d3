package org.eafr.namenode.power;

import java.io.IOException;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.alias.CredentialProvider;
import org.apache.hadoop.security.alias.CredentialProviderFactory;

/** A localjceks:// credential store made in the test's directory, as {@code hadoop credential create} makes one. */
final class TestCredentials {
  private TestCredentials() {
  }

  /** Stores {@code aliasesAndPasswords} (alias, password, alias, password...) and points {@code conf} at the store. */
  static void store(Configuration conf, Path dir, String... aliasesAndPasswords) throws IOException {
    String uri = "localjceks://file" + dir.toAbsolutePath().resolve("bmc.jceks");
    conf.set(CredentialProviderFactory.CREDENTIAL_PROVIDER_PATH, uri);
    CredentialProvider provider = CredentialProviderFactory.getProviders(conf).get(0);
    for (int i = 0; i < aliasesAndPasswords.length; i += 2) {
      provider.createCredentialEntry(aliasesAndPasswords[i], aliasesAndPasswords[i + 1].toCharArray());
    }
    provider.flush();
  }
}

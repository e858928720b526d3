# BMC passwords for the power inventory (conf/eafr-power-inventory.example.json: aliases eafr.bmc.dn1 to dn4; dn5 is
# woken by Wake-on-LAN and needs none), kept in a Hadoop credential store: never in hdfs-site.xml, the inventory or a
# log line. Run on each NameNode host; every create prompts for the password. Details: docs/power-drivers.md, "Credentials".
store=jceks://file/etc/hadoop/eafr-bmc.jceks
hadoop credential create eafr.bmc.dn1 -provider "$store"
hadoop credential create eafr.bmc.dn2 -provider "$store"
hadoop credential create eafr.bmc.dn3 -provider "$store"
hadoop credential create eafr.bmc.dn4 -provider "$store"
hadoop credential list -provider "$store"
chown hdfs: /etc/hadoop/eafr-bmc.jceks && chmod 600 /etc/hadoop/eafr-bmc.jceks
# Then in the NameNode's hdfs-site.xml (or core-site.xml):
#   <property><name>hadoop.security.credential.provider.path</name>
#     <value>jceks://file/etc/hadoop/eafr-bmc.jceks</value></property>
# A store with a password of its own needs HADOOP_CREDSTORE_PASSWORD in the NameNode's environment or
# hadoop.security.credstore.java-keystore-provider.password-file, as for any Hadoop credential store.

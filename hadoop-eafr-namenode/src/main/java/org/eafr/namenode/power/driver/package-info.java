/**
 * The power drivers: IPMI through ipmitool, Redfish over HTTPS, Wake-on-LAN with the DataNode's power agent, and an
 * operator's command, built from the power inventory with their BMC passwords by {@link
 * org.eafr.namenode.power.driver.PowerDrivers}. They implement {@link org.eafr.namenode.power.PowerDriver}; the
 * manager in {@code org.eafr.namenode.power} reaches them only through that interface and a
 * {@link org.eafr.namenode.power.DriverFactory}, so this package depends on that one and never the reverse.
 */
package org.eafr.namenode.power.driver;

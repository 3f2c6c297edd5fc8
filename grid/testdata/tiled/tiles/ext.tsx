<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="ext" tilewidth="8" tileheight="8" tilecount="2" columns="2">
 <image source="ext.png" width="16" height="8"/>
 <tile id="0"><properties><property name="solid" type="bool" value="true"/></properties></tile>
 <tile id="1"><properties><property name="solid" type="bool" value="false"/></properties></tile>
</tileset>
